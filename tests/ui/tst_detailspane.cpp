// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The details pane against a temporary workspace with a reading and a writing runner, as the
// window has them: typing in the spec editor, validation at the right line, Apply (generation
// bumped), conflicts that store nothing, unsaved edits kept across refreshes and selection
// changes, the Diff and Timeline tabs, and secrets never shown.
#include "detailspane.h"

#include "diffmodel.h"
#include "enginefixture.h"
#include "specedit.h"
#include "timelinemodel.h"
#include "workspacerunner.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace converge;
using namespace converge::test;

namespace {

const ResourceKey w1{QStringLiteral("Widget"), QStringLiteral("w1")};
const ResourceKey w2{QStringLiteral("Widget"), QStringLiteral("w2")};

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

void saveShot(QWidget *widget, const char *name)
{
    const QString path = QDir(QCoreApplication::applicationDirPath()).filePath(s(name));
    if (widget->grab().save(path))
        qInfo("screenshot: %s", qPrintable(path));
}

} // namespace

class tst_DetailsPane final : public QObject
{
    Q_OBJECT

private:
    struct Fixture
    {
        Fixture()
        {
            f.apply({EngineFixture::gadget(s("g")), EngineFixture::widget(s("w1"), s("g")),
                     EngineFixture::widget(s("w2"), s("g"), 2)});
            reader = std::make_unique<WorkspaceRunner>(f.path, Workspace::OpenMode::OpenExisting);
            writer = std::make_unique<WorkspaceRunner>(f.path, Workspace::OpenMode::OpenOrCreate);
            pane = std::make_unique<DetailsPane>(*reader, *writer, f.kinds);
            pane->resize(900, 600);
            pane->show();
        }
        ~Fixture()
        {
            // As the window does: the runners go first (their pending work is cancelled while
            // the pane that would consume it still exists), then the pane.
            reader.reset();
            writer.reset();
            pane.reset();
        }

        SpecEdit *editor() const { return pane->findChild<SpecEdit *>(s("specView")); }
        QLabel *status() const { return pane->findChild<QLabel *>(s("specStatus")); }
        QPushButton *applyButton() const { return pane->findChild<QPushButton *>(s("specApply")); }
        QPushButton *revertButton() const
        {
            return pane->findChild<QPushButton *>(s("specRevert"));
        }

        /// Shows `key` and waits until its data is in the tabs.
        bool show(const ResourceKey &key)
        {
            QSignalSpy loaded{pane.get(), &DetailsPane::loaded};
            pane->showResource(key);
            return loaded.wait(5000);
        }
        bool refresh(const ResourceKey &key)
        {
            QSignalSpy loaded{pane.get(), &DetailsPane::loaded};
            pane->refreshIfShown({key});
            return loaded.wait(5000);
        }

        /// The 1-based line holding `text`, or 0.
        int lineOf(const QString &text) const
        {
            const QStringList lines = editor()->toPlainText().split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i)
                if (lines.at(i).contains(text))
                    return i + 1;
            return 0;
        }

        /// Puts the cursor at the end of the line holding `text` and types `keys` there.
        bool typeAtEndOf(const QString &text, const QString &keys)
        {
            const int line = lineOf(text);
            if (line == 0)
                return false;
            editor()->goTo(line, 10000);
            QTest::keyClicks(editor(), keys);
            return true;
        }

        /// Replaces the line holding `text` by typing: select it, type the new line.
        bool replaceLine(const QString &text, const QString &replacement)
        {
            const int line = lineOf(text);
            if (line == 0)
                return false;
            editor()->goTo(line, 1);
            QTest::keyClick(editor(), Qt::Key_End, Qt::ShiftModifier);
            QTest::keyClicks(editor(), replacement);
            return true;
        }

        /// Validation settled: not checking any more.
        bool settled() const { return !status()->text().contains(s("Checking")); }

        EngineFixture f;
        std::unique_ptr<WorkspaceRunner> reader;
        std::unique_ptr<WorkspaceRunner> writer;
        std::unique_ptr<DetailsPane> pane;
    };

private Q_SLOTS:
    void typingAnInvalidValueShowsTheErrorAtItsLine()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        QVERIFY(x.editor()->toPlainText().contains(s("name: w1")));
        QVERIFY(!x.editor()->isReadOnly());
        QVERIFY(!x.applyButton()->isEnabled()); // nothing edited

        const int line = x.lineOf(s("replicas: 1"));
        QVERIFY(line > 0);
        QVERIFY(x.typeAtEndOf(s("replicas: 1"), s("1"))); // replicas: 11, above the maximum
        QVERIFY(!x.applyButton()->isEnabled());
        QTRY_COMPARE(x.editor()->diagnosticLine(), line);
        QVERIFY(!x.applyButton()->isEnabled());
        // "line:column: field: message"; a field's error points at its key.
        const QString where = QString::number(line) + s(":3: spec.replicas: ");
        QVERIFY2(x.status()->text().contains(where), qPrintable(x.status()->text()));
        QVERIFY2(x.status()->text().contains(s("goto:%1:3").arg(line)),
                 qPrintable(x.status()->text()));
        QVERIFY(x.editor()->diagnosticMessage().startsWith(where));
        saveShot(x.pane.get(), "detailspane-error.png");

        // Clicking the message moves the cursor to the place.
        x.editor()->goTo(1, 1);
        Q_EMIT x.status()->linkActivated(s("goto:%1:3").arg(line));
        QCOMPARE(x.editor()->textCursor().blockNumber() + 1, line);
        QCOMPARE(x.editor()->textCursor().positionInBlock(), 2);

        // Fixing it enables Apply and takes the marker away.
        QVERIFY(x.typeAtEndOf(s("replicas: 11"), QString()));
        QTest::keyClick(x.editor(), Qt::Key_Backspace);
        QTest::keyClicks(x.editor(), s("5")); // replicas: 15 → still invalid
        QTRY_VERIFY(x.settled());
        QTRY_COMPARE(x.editor()->diagnosticLine(), line);
        QTest::keyClick(x.editor(), Qt::Key_Backspace);
        QTest::keyClick(x.editor(), Qt::Key_Backspace);
        QTest::keyClicks(x.editor(), s("5")); // replicas: 5
        QTRY_VERIFY(x.applyButton()->isEnabled());
        QCOMPARE(x.editor()->diagnosticLine(), 0);
        QVERIFY(x.pane->hasUnsavedEdits());
    }

    void aFieldTheBackendCannotChangeIsMarkedAndApplyStaysOff()
    {
        Fixture x;
        // w1 exists in the backend under its metadata.name (its azureName left out).
        ResourceStatus status = x.f.stored(w1).status;
        status.observed =
            QJsonObject{{s("spec"), QJsonObject{{s("owner"), QJsonObject{{s("name"), s("g")}}},
                                                {s("azureName"), s("w1")}}}};
        QVERIFY(x.f.ws->updateStatus(w1, status, nullptr));
        QVERIFY(x.show(w1));
        const int line = x.lineOf(s("replicas: 1"));
        QVERIFY(line > 0);
        QVERIFY(x.typeAtEndOf(s("replicas: 1"), QString()));
        QTest::keyClick(x.editor(), Qt::Key_Return);
        QTest::keyClick(x.editor(), Qt::Key_Home, Qt::ShiftModifier); // any indent it kept
        QTest::keyClicks(x.editor(), s("  azureName: renamed"));
        QCOMPARE(x.lineOf(s("azureName: renamed")), line + 1);
        QTRY_COMPARE(x.editor()->diagnosticLine(), line + 1);
        QTRY_VERIFY(x.settled());
        QVERIFY(!x.applyButton()->isEnabled());
        const QString text = x.status()->text();
        QVERIFY2(text.contains(s("spec.azureName: cannot change after creation (")),
                 qPrintable(text));
        saveShot(x.pane.get(), "detailspane-immutable.png");
    }

    void changingKindOrNameIsRefused_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("message");
        QTest::newRow("name") << s("  name: w1") << s("  name: w9")
                              << s("metadata.name: must stay w1");
        QTest::newRow("kind") << s("kind: Widget") << s("kind: Gadget") << s("kind: must stay");
    }

    void changingKindOrNameIsRefused()
    {
        QFETCH(QString, line);
        QFETCH(QString, replacement);
        QFETCH(QString, message);
        Fixture x;
        QVERIFY(x.show(w1));
        const int at = x.lineOf(line);
        QVERIFY(at > 0);
        QVERIFY(x.replaceLine(line, replacement));
        QTRY_VERIFY(x.settled());
        QTRY_COMPARE(x.editor()->diagnosticLine(), at);
        QVERIFY2(x.status()->text().contains(message), qPrintable(x.status()->text()));
        QVERIFY(!x.applyButton()->isEnabled());
    }

    void applyStoresTheSpecAndBumpsGeneration()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        const Resource before = x.f.stored(w1);
        QCOMPARE(before.metadata.generation, 1);
        QVERIFY(x.replaceLine(s("replicas: 1"), s("  replicas: 4")));
        QTRY_VERIFY(x.applyButton()->isEnabled());

        QSignalSpy applied{x.pane.get(), &DetailsPane::specApplied};
        QVERIFY(applied.isValid());
        QTest::mouseClick(x.applyButton(), Qt::LeftButton);
        QVERIFY(applied.wait(5000));
        QCOMPARE(applied.first().at(0).value<ResourceKey>(), w1);
        QCOMPARE(applied.first().at(1).toLongLong(), 2);

        const Resource after = x.f.stored(w1);
        QCOMPARE(after.spec.value(s("replicas")).toInt(), 4);
        QCOMPARE(after.metadata.generation, 2);
        QCOMPARE(after.metadata.uid, before.metadata.uid);
        QCOMPARE(after.metadata.finalizers, before.metadata.finalizers);
        QVERIFY(!x.pane->hasUnsavedEdits());
        QVERIFY(!x.applyButton()->isEnabled());
        QVERIFY(x.status()->text().contains(s("generation 2")));
    }

    void aConcurrentChangeConflictsAndStoresNothing()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        QVERIFY(x.replaceLine(s("replicas: 1"), s("  replicas: 6")));
        QTRY_VERIFY(x.applyButton()->isEnabled());

        // Someone else changes the spec between load and Apply.
        Resource other = x.f.stored(w1);
        other.spec.insert(s("replicas"), 7);
        StoreError error;
        QVERIFY2(x.f.ws->update(other, &error), qPrintable(error.message));
        QCOMPARE(other.metadata.generation, 2);

        QSignalSpy failed{x.pane.get(), &DetailsPane::specApplyFailed};
        QSignalSpy applied{x.pane.get(), &DetailsPane::specApplied};
        QTest::mouseClick(x.applyButton(), Qt::LeftButton);
        QVERIFY(failed.wait(5000));
        QCOMPARE(applied.size(), 0);
        QVERIFY2(x.status()->text().contains(s("changed meanwhile")),
                 qPrintable(x.status()->text()));
        QVERIFY(x.status()->text().contains(s("Revert")));
        const Resource stored = x.f.stored(w1);
        QCOMPARE(stored.spec.value(s("replicas")).toInt(), 7);
        QCOMPARE(stored.metadata.generation, 2);
        QVERIFY(x.pane->hasUnsavedEdits()); // the edits stay for the person to look at

        // Revert shows the stored version.
        QVERIFY(x.revertButton()->isEnabled());
        QSignalSpy loaded{x.pane.get(), &DetailsPane::loaded};
        QTest::mouseClick(x.revertButton(), Qt::LeftButton);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(x.editor()->toPlainText().contains(s("replicas: 7")));
        QVERIFY(!x.pane->hasUnsavedEdits());
    }

    void aStatusWriteAloneDoesNotConflict()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        QVERIFY(x.replaceLine(s("replicas: 1"), s("  replicas: 3")));
        QTRY_VERIFY(x.applyButton()->isEnabled());

        // The controller writes status (bumping resourceVersion) while the person edits.
        ResourceStatus status;
        status.observed = QJsonObject{{s("spec"), QJsonObject{{s("replicas"), 1}}}};
        StoreError error;
        QVERIFY2(x.f.ws->updateStatus(w1, status, &error), qPrintable(error.message));

        QSignalSpy applied{x.pane.get(), &DetailsPane::specApplied};
        QTest::mouseClick(x.applyButton(), Qt::LeftButton);
        QVERIFY(applied.wait(5000));
        QCOMPARE(x.f.stored(w1).spec.value(s("replicas")).toInt(), 3);
        QCOMPARE(x.f.stored(w1).status.observed, status.observed); // status kept
    }

    void aRefreshKeepsUnsavedEdits()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        QVERIFY(x.replaceLine(s("replicas: 1"), s("  replicas: 8")));
        const QString edited = x.editor()->toPlainText();

        // Status only: the edits stay and nothing is said.
        ResourceStatus status;
        status.observed = QJsonObject{{s("spec"), QJsonObject{{s("replicas"), 1}}}};
        StoreError error;
        QVERIFY(x.f.ws->updateStatus(w1, status, &error));
        QVERIFY(x.refresh(w1));
        QCOMPARE(x.editor()->toPlainText(), edited);
        QTRY_VERIFY(x.settled());
        QVERIFY(!x.status()->text().contains(s("stored spec changed")));

        // The stored spec changes: the edits stay, and the pane says so.
        Resource other = x.f.stored(w1);
        other.spec.insert(s("replicas"), 9);
        QVERIFY(x.f.ws->update(other, &error));
        QVERIFY(x.refresh(w1));
        QCOMPARE(x.editor()->toPlainText(), edited);
        QVERIFY2(x.status()->text().contains(s("stored spec changed")),
                 qPrintable(x.status()->text()));

        // Without edits a refresh shows the stored spec.
        QSignalSpy loaded{x.pane.get(), &DetailsPane::loaded};
        x.pane->revertSpec();
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(x.editor()->toPlainText().contains(s("replicas: 9")));
        other = x.f.stored(w1);
        other.spec.insert(s("replicas"), 10);
        QVERIFY(x.f.ws->update(other, &error));
        QVERIFY(x.refresh(w1));
        QVERIFY(x.editor()->toPlainText().contains(s("replicas: 10")));
        QVERIFY(!x.pane->hasUnsavedEdits());
    }

    void editsAreKeptAcrossSelectionChanges()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        QVERIFY(x.replaceLine(s("replicas: 1"), s("  replicas: 4")));
        const QString edited = x.editor()->toPlainText();

        QVERIFY(x.show(w2));
        QVERIFY(x.editor()->toPlainText().contains(s("name: w2")));
        QVERIFY(!x.pane->hasUnsavedEdits());
        QCOMPARE(x.pane->draftKeys(), QList<ResourceKey>{w1});

        QVERIFY(x.show(w1));
        QCOMPARE(x.editor()->toPlainText(), edited);
        QVERIFY(x.pane->hasUnsavedEdits());
        QVERIFY(x.pane->draftKeys().isEmpty());
        QTRY_VERIFY(x.applyButton()->isEnabled());
        QVERIFY2(x.status()->text().contains(s("unsaved edits")), qPrintable(x.status()->text()));

        QSignalSpy applied{x.pane.get(), &DetailsPane::specApplied};
        QTest::mouseClick(x.applyButton(), Qt::LeftButton);
        QVERIFY(applied.wait(5000));
        QCOMPARE(x.f.stored(w1).spec.value(s("replicas")).toInt(), 4);
    }

    void diffShowsDifferingAndEqualFields()
    {
        Fixture x;
        QVERIFY(x.show(w1));
        auto *diff = x.pane->findChild<QTreeView *>(s("diffView"));
        auto *diffStatus = x.pane->findChild<QLabel *>(s("diffStatus"));
        QVERIFY(diff && diffStatus);
        QAbstractItemModelTester tester(diff->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY2(diffStatus->text().contains(s("Not observed yet")),
                 qPrintable(diffStatus->text()));

        ResourceStatus status;
        status.observed =
            QJsonObject{{s("spec"), QJsonObject{{s("owner"), QJsonObject{{s("name"), s("g")}}},
                                                {s("replicas"), 3},
                                                {s("publicAccess"), s("None")},
                                                {s("accountKey"), s("s3cr3t-value")}}}};
        StoreError error;
        QVERIFY(x.f.ws->updateStatus(w1, status, &error));
        QVERIFY(x.refresh(w1));

        QAbstractItemModel *model = diff->model();
        auto row = [model](const QString &path) {
            for (int r = 0; r < model->rowCount(); ++r)
                if (model->index(r, DiffModel::PathColumn).data().toString() == path)
                    return r;
            return -1;
        };
        const int replicas = row(s("spec.replicas"));
        const int access = row(s("spec.publicAccess"));
        QVERIFY(replicas >= 0 && access >= 0);
        QVERIFY(model->index(replicas, 0).data(DiffModel::DiffersRole).toBool());
        QCOMPARE(model->index(replicas, DiffModel::DesiredColumn).data().toString(), s("1"));
        QCOMPARE(model->index(replicas, DiffModel::ObservedColumn).data().toString(), s("3"));
        QVERIFY(!model->index(access, 0).data(DiffModel::DiffersRole).toBool());
        QCOMPARE(model->index(access, DiffModel::ObservedColumn).data().toString(), s("None"));
        QVERIFY2(diffStatus->text().contains(s("spec.replicas")), qPrintable(diffStatus->text()));
        x.pane->findChild<QTabWidget *>(s("detailsTabs"))->setCurrentIndex(2);
        saveShot(x.pane.get(), "detailspane-diff.png");

        // A secret is never shown, in the diff or the observed state.
        const int key = row(s("spec.accountKey"));
        QVERIFY(key >= 0);
        QCOMPARE(model->index(key, DiffModel::ObservedColumn).data().toString(), s("(secret)"));
        auto *observed = x.pane->findChild<QPlainTextEdit *>(s("observedView"));
        QVERIFY(observed->toPlainText().contains(s("replicas")));
        QVERIFY(!observed->toPlainText().contains(s("s3cr3t")));

        // Equal everywhere: said plainly.
        status.observed =
            QJsonObject{{s("spec"), QJsonObject{{s("owner"), QJsonObject{{s("name"), s("g")}}},
                                                {s("replicas"), 1},
                                                {s("publicAccess"), s("None")}}}};
        QVERIFY(x.f.ws->updateStatus(w1, status, &error));
        QVERIFY(x.refresh(w1));
        QVERIFY2(diffStatus->text().contains(s("No difference")), qPrintable(diffStatus->text()));
        for (int r = 0; r < model->rowCount(); ++r)
            QVERIFY(!model->index(r, 0).data(DiffModel::DiffersRole).toBool());
    }

    void timelineListsPhaseRuns()
    {
        Fixture x;
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-60);
        PhaseRun ok;
        ok.key = w1;
        ok.reconcileId = s("r1");
        ok.phase = s("createOrUpdate");
        ok.startedAt = t0;
        ok.durationMs = 1260;
        ok.outcome = s("Done");
        ok.reason = s("Succeeded");
        ok.backendWrites = 1;
        ok.requestId = s("req-1");
        PhaseRun failed = ok;
        failed.reconcileId = s("r2");
        failed.startedAt = t0.addSecs(10);
        failed.durationMs = 40;
        failed.outcome = s("Fatal");
        failed.reason = s("InvalidSpec");
        failed.backendCode = s("InvalidResourceName");
        failed.requestId = s("req-2");
        failed.backendWrites = 0;
        failed.message = s("the name is not allowed");
        QList<PhaseRun> runs{ok, failed};
        StoreError error;
        QVERIFY2(x.f.ws->recordPhaseRuns(runs, &error), qPrintable(error.message));

        QVERIFY(x.show(w1));
        auto *timeline = x.pane->findChild<QTreeView *>(s("timelineView"));
        QVERIFY(timeline);
        QAbstractItemModel *model = timeline->model();
        QCOMPARE(model->rowCount(), 2);
        // Newest first, failures marked.
        QCOMPARE(model->index(0, TimelineModel::OutcomeColumn).data().toString(), s("Fatal"));
        QVERIFY(model->index(0, 0).data(TimelineModel::FailedRole).toBool());
        QCOMPARE(model->index(0, TimelineModel::BackendCodeColumn).data().toString(),
                 s("InvalidResourceName"));
        QCOMPARE(model->index(0, TimelineModel::RequestIdColumn).data().toString(), s("req-2"));
        QCOMPARE(model->index(0, TimelineModel::MessageColumn).data().toString(),
                 s("the name is not allowed"));
        QCOMPARE(model->index(1, TimelineModel::OutcomeColumn).data().toString(), s("Done"));
        QVERIFY(!model->index(1, 0).data(TimelineModel::FailedRole).toBool());
        QCOMPARE(model->index(1, TimelineModel::DurationColumn).data().toString(), s("1.3 s"));
        QCOMPARE(model->index(1, TimelineModel::WritesColumn).data().toString(), s("1"));
        QCOMPARE(model->index(1, TimelineModel::PhaseColumn).data().toString(),
                 s("createOrUpdate"));

        // Another resource has no runs.
        QVERIFY(x.show(w2));
        QCOMPARE(model->rowCount(), 0);
    }
};

QTEST_MAIN(tst_DetailsPane)
#include "tst_detailspane.moc"
