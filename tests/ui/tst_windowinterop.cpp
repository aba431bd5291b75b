// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The window and Azure Service Operator / AWS Controllers for Kubernetes files: a dropped ASO
// file goes through the plan dialog as any manifest, with its field changes; File ▸ Export ▸
// writes what `converge export --for aso|ack` writes, of the selection or everything; for ASO
// it first asks for what the storage accounts lack (location, SKU, kind, resource group) and
// writes what `converge export --for aso --location …` writes with the same answers.
#include "mainwindow.h"

#include "applyplandialog.h"
#include "asoexporter.h"
#include "asoexportoptionsdialog.h"
#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindregistry.h"
#include "manifestreader.h"
#include "manifestwriter.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDropEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
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
        GcpKinds::registerKinds(kinds);
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
        return chooseFile(file, finished);
    }

    /// Answers the file dialog with `file` and waits for the export's end.
    QList<QVariant> chooseFile(const QString &file, QSignalSpy &finished)
    {
        auto *dialog = waitForChild<QFileDialog>(s("interopExportFileDialog"));
        if (!dialog)
            return {};
        // Nothing was missing, or it was given: no question about the accounts is open.
        if (auto *options = window->findChild<AsoExportOptionsDialog *>();
            options && options->isVisible())
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
        QTest::newRow("kcc") << s("exportKccAction") << s("kcc");
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

    void asoAsksForWhatTheAccountLacks()
    {
        // accountKind is given; location, sku and resourceGroup are not.
        Fixture f("apiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                  "metadata: {name: devstore}\n"
                  "spec: {accountName: devstore, accountKind: StorageV2,"
                  " credential: {env: DEVSTORE_KEY}}\n"
                  "---\napiVersion: azure.converge.dev/v1\nkind: BlobContainer\n"
                  "metadata: {name: invoices}\nspec: {owner: {name: devstore}}\n");
        QSignalSpy finished{f.window.get(), &MainWindow::exportFinished};
        f.window->findChild<QAction *>(s("exportAsoAction"))->trigger();
        auto *options = f.waitForChild<AsoExportOptionsDialog>(s("asoExportOptionsDialog"));
        QVERIFY(options);
        QVERIFY(!f.window->findChild<QFileDialog *>()); // asked before the file
        auto *location = options->findChild<QLineEdit *>(s("asoLocation_devstore"));
        auto *sku = options->findChild<QComboBox *>(s("asoSku_devstore"));
        auto *kind = options->findChild<QComboBox *>(s("asoAccountKind_devstore"));
        auto *group = options->findChild<QLineEdit *>(s("asoResourceGroup_devstore"));
        QVERIFY(location && sku && kind && group);
        // Each field says what it is.
        for (QWidget *field : std::initializer_list<QWidget *>{location, sku, kind, group}) {
            auto *label = qobject_cast<QLabel *>(
                qobject_cast<QFormLayout *>(field->parentWidget()->layout())->labelForField(field));
            QVERIFY(label && !label->text().isEmpty());
        }
        // Prefilled from the spec where it is set.
        QCOMPARE(kind->currentText(), s("StorageV2"));
        QCOMPARE(location->text(), QString());
        QCOMPARE(sku->currentIndex(), -1);
        QCOMPARE(group->text(), QString());
        auto *ok = options->findChild<QPushButton *>(s("asoOptionsOk"));
        QVERIFY(ok);
        QVERIFY(!ok->isEnabled());
        QVERIFY(!options->isComplete());
        QTest::keyClicks(location, s("westeurope"));
        QVERIFY(!ok->isEnabled());
        sku->setCurrentIndex(sku->findText(s("Standard_LRS")));
        QVERIFY(!ok->isEnabled());
        QTest::keyClicks(group, s("rg billing")); // a space is not a resource group's
        QCOMPARE(group->text(), s("rgbilling"));
        QVERIFY(ok->isEnabled());
        kind->setCurrentIndex(-1);
        QVERIFY(!ok->isEnabled());
        kind->setCurrentIndex(kind->findText(s("StorageV2")));
        QVERIFY(ok->isEnabled());
        if (const QString shot = qEnvironmentVariable("CONVERGE_ASO_OPTIONS_SCREENSHOT");
            !shot.isEmpty())
            QVERIFY(options->grab().save(shot));
        QTest::mouseClick(ok, Qt::LeftButton);

        const QString path = f.dir.filePath(s("aso.yaml"));
        const QList<QVariant> result = f.chooseFile(path, finished);
        QVERIFY(!result.isEmpty());
        QCOMPARE(result.at(1).toString(), QString());
        const QByteArray text = readAll(path);
        QVERIFY2(text.contains("location: westeurope\n"), text.constData());
        QVERIFY2(text.contains("name: Standard_LRS\n"), text.constData());
        QVERIFY2(text.contains("kind: StorageV2\n"), text.constData());
        QVERIFY2(text.contains("name: rgbilling\n"), text.constData());
        // What the command line writes with the same answers as flags, byte for byte (the
        // documents interop.crd_validation checks against ASO's CRDs).
        const QByteArray expected =
            f.cli({s("export"), s("--for"), s("aso"), s("--location"), s("westeurope"), s("--sku"),
                   s("Standard_LRS"), s("--account-kind"), s("StorageV2"), s("--resource-group"),
                   s("rgbilling")});
        QVERIFY(!expected.isEmpty());
        QCOMPARE(text, expected);
        // Nothing was stored: the next export asks again.
        StoreError error;
        const auto ws = Workspace::open(f.path, &error);
        QVERIFY(!ws->get({s("StorageAccount"), s("devstore")})->spec.contains(s("location")));
    }

    void asoAsksOnlyForTheAccountsThatLackSomething()
    {
        Fixture f("apiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                  "metadata: {name: devstore}\n"
                  "spec: {accountName: devstore, location: westeurope, sku: Standard_GRS,"
                  " credential: {env: DEVSTORE_KEY}}\n"
                  "---\napiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                  "metadata: {name: archive}\n"
                  "spec: {accountName: archive, location: northeurope, sku: Standard_LRS,"
                  " accountKind: StorageV2, resourceGroup: rg-archive,"
                  " credential: {env: ARCHIVE_KEY}}\n");
        QSignalSpy finished{f.window.get(), &MainWindow::exportFinished};
        f.window->findChild<QAction *>(s("exportAsoAction"))->trigger();
        auto *options = f.waitForChild<AsoExportOptionsDialog>(s("asoExportOptionsDialog"));
        QVERIFY(options);
        QVERIFY(options->findChild<QWidget *>(s("asoOptions_devstore")));
        QVERIFY(!options->findChild<QWidget *>(s("asoOptions_archive")));
        QCOMPARE(options->findChild<QLineEdit *>(s("asoLocation_devstore"))->text(),
                 s("westeurope"));
        QCOMPARE(options->findChild<QComboBox *>(s("asoSku_devstore"))->currentText(),
                 s("Standard_GRS"));
        auto *kind = options->findChild<QComboBox *>(s("asoAccountKind_devstore"));
        kind->setCurrentIndex(kind->findText(s("BlobStorage")));
        QTest::keyClicks(options->findChild<QLineEdit *>(s("asoResourceGroup_devstore")),
                         s("rg-dev"));
        QVERIFY(options->isComplete());
        options->accept();
        const QString path = f.dir.filePath(s("aso.yaml"));
        const QList<QVariant> result = f.chooseFile(path, finished);
        QVERIFY(!result.isEmpty());
        QCOMPARE(result.at(1).toString(), QString());
        const QByteArray text = readAll(path);
        QVERIFY2(text.contains("kind: BlobStorage\n"), text.constData());
        QVERIFY2(text.contains("name: rg-dev\n"), text.constData());
        QVERIFY2(text.contains("name: rg-archive\n"), text.constData()); // the other's own
        QVERIFY2(text.contains("location: northeurope\n"), text.constData());
    }

    void cancellingTheQuestionWritesNothing()
    {
        Fixture f("apiVersion: azure.converge.dev/v1\nkind: StorageAccount\n"
                  "metadata: {name: devstore}\n"
                  "spec: {accountName: devstore, credential: {env: DEVSTORE_KEY}}\n");
        QSignalSpy finished{f.window.get(), &MainWindow::exportFinished};
        f.window->findChild<QAction *>(s("exportAsoAction"))->trigger();
        auto *options = f.waitForChild<AsoExportOptionsDialog>(s("asoExportOptionsDialog"));
        QVERIFY(options);
        options->reject();
        QTest::qWait(100);
        QVERIFY(!f.window->findChild<QFileDialog *>());
        QCOMPARE(finished.count(), 0);
    }

    void noQuestionWhenNothingIsMissing()
    {
        Fixture f; // both accounts of the interop workspace hold every field
        const QString path = f.dir.filePath(s("aso.yaml"));
        // (exportFor fails when the question is open at the file dialog.)
        const QList<QVariant> finished = f.exportFor("exportAsoAction", path);
        QVERIFY(!finished.isEmpty());
        QVERIFY(!f.window->findChild<AsoExportOptionsDialog *>());
        QVERIFY(QFile::exists(path));
    }
};

QTEST_MAIN(tst_WindowInterop)
#include "tst_windowinterop.moc"
