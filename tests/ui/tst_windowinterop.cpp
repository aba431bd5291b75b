// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window and Azure Service Operator / AWS Controllers for Kubernetes files: a dropped ASO
// file goes through the plan dialog as any manifest, with its field changes; File ▸ Export ▸
// writes what `converge export --for aso|ack` writes, of the selection or everything, and
// shows the fields it misses without writing anything.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "asoexporter.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "manifestwriter.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace converge;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

struct Fixture
{
    /// A workspace holding `manifest` (tests/data/interop/workspace.yaml when empty).
    explicit Fixture(const QByteArray &manifest = {})
        : settings(dir.filePath(s("ui.ini")), QSettings::IniFormat)
    {
        AzureKinds::registerAll(kinds);
        AwsKinds::registerKinds(kinds);
        path = dir.filePath(s("interop.converge"));
        const ManifestReader reader(kinds);
        const ManifestReader::Result read =
            manifest.isEmpty() ? reader.readFile(qEnvironmentVariable("CONVERGE_TEST_DATA") +
                                                 s("/interop/workspace.yaml"))
                               : reader.read(manifest, s("given.yaml"));
        if (!read.ok())
            qFatal("the manifest does not read: %s", qPrintable(read.errors.first().toString()));
        QList<Resource> objects;
        for (const ManifestObject &o : read.objects)
            objects.append(o.resource);
        StoreError error;
        {
            const auto ws = Workspace::open(path, &error);
            if (!ws || !ws->apply(objects, nullptr, &error))
                qFatal("cannot store the workspace: %s", qPrintable(error.message));
        }
        window =
            std::make_unique<MainWindow>(WindowServices{kinds, path, nullptr, &settings, nullptr});
        window->show();
    }

    template<typename T>
    T *waitForChild(const QString &name) const
    {
        T *found = nullptr;
        for (int i = 0; i < 500; ++i) {
            found = window->findChild<T *>(name);
            if (found && found->isVisible())
                return found;
            QTest::qWait(10);
        }
        return nullptr;
    }

    /// Triggers File ▸ Export ▸ for …, answers the questions, waits for the end.
    QList<QVariant> exportFor(const char *action, const QString &file, const char *scope = nullptr)
    {
        QSignalSpy finished{window.get(), &MainWindow::exportFinished};
        window->findChild<QAction *>(s(action))->trigger();
        if (scope) {
            auto *ask = waitForChild<QMessageBox>(s("interopExportScope"));
            if (!ask)
                return {};
            QTest::mouseClick(ask->findChild<QPushButton *>(s(scope)), Qt::LeftButton);
        }
        auto *dialog = waitForChild<QFileDialog>(s("interopExportFileDialog"));
        if (!dialog)
            return {};
        Q_EMIT dialog->fileSelected(file);
        dialog->close();
        if (!finished.wait(10000))
            return {};
        return finished.constFirst();
    }

    QByteArray cli(const QStringList &args) const
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(s("QT_QPA_PLATFORM"), s("no-display-for-the-cli"));
        p.setProcessEnvironment(env);
        p.start(QString::fromUtf8(CONVERGE_EXECUTABLE), args + QStringList{s("--workspace"), path});
        if (!p.waitForFinished(30000))
            return {};
        return p.readAllStandardOutput();
    }

    QTemporaryDir dir;
    QSettings settings;
    KindRegistry kinds;
    QString path;
    std::unique_ptr<MainWindow> window;
};

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_WindowInterop final : public QObject
{
    Q_OBJECT

private slots:
    void droppedAsoFileShowsThePlanWithItsFieldChanges()
    {
        Fixture f;
        QList<Resource> all;
        {
            StoreError error;
            const auto ws = Workspace::open(f.path, &error);
            QVERIFY(ws);
            all = ws->list({});
        }
        const ExportResult exported = AsoExporter({}).exportResources(all, all);
        QVERIFY(exported.ok());
        QByteArray text = ManifestWriter::documentsToYaml(exported.documents);
        QVERIFY(text.contains("publicAccess: Blob"));
        text.replace("publicAccess: Blob", "publicAccess: Container");
        const QString path = f.dir.filePath(s("aso.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint centre = f.window->rect().center();
        QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(f.window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(f.window.get(), &drop);

        ApplyPlanDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = f.window->findChild<ApplyPlanDialog *>()) && dialog->isVisible());
        QVERIFY2(dialog->plan().isValid(), qPrintable(dialog->plan().items.value(0).detail));
        auto *items = dialog->findChild<QTreeWidget *>(s("planItems"));
        QTreeWidgetItem *changed = nullptr;
        for (int i = 0; i < items->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = items->topLevelItem(i);
            if (item->text(1) == s("BlobContainer/invoices"))
                changed = item;
            else {
                QVERIFY2(item->text(0) == s("unchanged"), qPrintable(item->text(1)));
                // Nothing to open: what the backend would see is a note in the details.
                QCOMPARE(item->childCount(), 0);
                QVERIFY2(item->text(2).contains(s("not observed yet")), qPrintable(item->text(2)));
            }
        }
        QVERIFY(changed);
        // For docs/screenshots/plan-aso.png (see the README).
        if (const QString shot = qEnvironmentVariable("CONVERGE_DIALOG_SCREENSHOT");
            !shot.isEmpty())
            QVERIFY(dialog->grab().save(shot));
        // Where each object comes from (file:line:column) is in sight at the dialog's size.
        const QHeaderView *header = items->header();
        QVERIFY2(header->sectionViewportPosition(3) + header->sectionSize(3) <=
                     items->viewport()->width(),
                 qPrintable(QStringLiteral("Where at %1, %2 wide, in a viewport of %3")
                                .arg(header->sectionViewportPosition(3))
                                .arg(header->sectionSize(3))
                                .arg(items->viewport()->width())));
        QCOMPARE(changed->text(0), s("update"));
        QVERIFY2(changed->text(2).startsWith(s("spec.publicAccess")), qPrintable(changed->text(2)));
        QVERIFY(changed->childCount() >= 1);
        QCOMPARE(changed->child(0)->text(1), s("spec.publicAccess"));
        QCOMPARE(changed->child(0)->text(2), s("\"Blob\" → \"Container\""));

        QSignalSpy applied{f.window.get(), &MainWindow::manifestApplied};
        QTest::mouseClick(dialog->findChild<QPushButton *>(s("applyButton")), Qt::LeftButton);
        QVERIFY(applied.wait());
        QCOMPARE(applied.at(0).at(1).toString(), QString());
        StoreError error;
        const auto ws = Workspace::open(f.path, &error);
        QCOMPARE(ws->get({s("BlobContainer"), s("invoices")})->spec.value(s("publicAccess")),
                 QJsonValue(s("Container")));
    }

    void exportForAsoWritesWhatTheCommandLineWrites_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("target");
        QTest::newRow("aso") << s("exportAsoAction") << s("aso");
        QTest::newRow("ack") << s("exportAckAction") << s("ack");
    }

    void exportForAsoWritesWhatTheCommandLineWrites()
    {
        QFETCH(QString, action);
        QFETCH(QString, target);
        Fixture f;
        const QString path = f.dir.filePath(target + s(".yaml"));
        const QList<QVariant> finished = f.exportFor(action.toLatin1().constData(), path);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(finished.at(1).toString(), QString());
        const QByteArray expected = f.cli({s("export"), s("--for"), target});
        QVERIFY(!expected.isEmpty());
        QCOMPARE(readAll(path), expected);
        if (target == s("aso")) {
            // The Blob has no counterpart: named, with the file written.
            auto *message = f.waitForChild<QMessageBox>(s("interopExportMessage"));
            QVERIFY(message);
            QVERIFY2(message->text().contains(s("Blob/readme")), qPrintable(message->text()));
        }
    }

    void exportOfTheSelection()
    {
        Fixture f;
        const ResourceKey invoices{s("BlobContainer"), s("invoices")};
        QTRY_VERIFY_WITH_TIMEOUT(f.window->selectResource(invoices), 10000);
        const QString path = f.dir.filePath(s("selection.yaml"));
        const QList<QVariant> finished =
            f.exportFor("exportAsoAction", path, "exportSelectionButton");
        QVERIFY(!finished.isEmpty());
        QCOMPARE(finished.at(1).toString(), QString());
        const QByteArray text = readAll(path);
        QVERIFY2(text.contains("kind: StorageAccountsBlobServicesContainer\n"), text.constData());
        QVERIFY2(text.contains("name: invoices\n"), text.constData());
        QVERIFY2(!text.contains("StorageAccountsQueueServicesQueue"), text.constData());
    }

    void missingFieldsAreShownAndNothingIsWritten()
    {
        Fixture f("apiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                  "metadata: {name: devstore}\n"
                  "spec: {accountName: devstore, credential: {env: DEVSTORE_KEY}}\n");
        const QString path = f.dir.filePath(s("aso.yaml"));
        const QList<QVariant> finished = f.exportFor("exportAsoAction", path);
        QVERIFY(!finished.isEmpty());
        QVERIFY(!finished.at(1).toString().isEmpty());
        QVERIFY(!QFile::exists(path));
        auto *message = f.waitForChild<QMessageBox>(s("interopExportMessage"));
        QVERIFY(message);
        for (const char *field : {"spec.location", "spec.sku", "spec.resourceGroup"})
            QVERIFY2(message->text().contains(s(field)), qPrintable(message->text()));
    }
};

QTEST_MAIN(tst_WindowInterop)
#include "tst_windowinterop.moc"
