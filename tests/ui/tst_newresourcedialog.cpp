// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Resource → New…: a template per kind with the chosen owner and name, validated as it is
// edited, Apply only while it is valid.
#include "newresourcedialog.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "kindregistry.h"
#include "specedit.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace converge;

namespace {

KindRegistry builtInKinds()
{
    KindRegistry kinds;
    AzureKinds::registerAll(kinds);
    AwsKinds::registerKinds(kinds);
    return kinds;
}

} // namespace

class tst_NewResourceDialog final : public QObject
{
    Q_OBJECT

private slots:
    void templateForKindAndOwner()
    {
        const KindRegistry kinds = builtInKinds();
        const QHash<QString, QStringList> names{
            {QStringLiteral("StorageAccount"), {QStringLiteral("zeta"), QStringLiteral("alpha")}},
            {QStringLiteral("BlobContainer"), {QStringLiteral("blobcontainer1")}}};
        NewResourceDialog dialog(kinds, names);
        dialog.show();
        dialog.setKind(QStringLiteral("BlobContainer"));
        auto *owner = dialog.findChild<QComboBox *>(QStringLiteral("ownerCombo"));
        QVERIFY(owner->isEnabled());
        QCOMPARE(owner->count(), 2);
        QCOMPARE(owner->itemText(0), QStringLiteral("alpha"));
        // The suggested name avoids the names taken.
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(),
                 QStringLiteral("blobcontainer2"));
        QVERIFY(dialog.manifest().contains(QStringLiteral("kind: BlobContainer")));
        QVERIFY(dialog.manifest().contains(QStringLiteral("name: alpha")));
        QVERIFY(dialog.manifest().contains(QStringLiteral("name: blobcontainer2")));
        dialog.setOwner(QStringLiteral("zeta"));
        QVERIFY(dialog.manifest().contains(QStringLiteral("name: zeta")));
        dialog.validateNow();
        QVERIFY2(dialog.isValid(), qPrintable(dialog.errorText()));
        QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());

        // A kind without an owner.
        dialog.setKind(QStringLiteral("AwsAccount"));
        QVERIFY(!owner->isEnabled());
        QVERIFY(dialog.manifest().contains(QStringLiteral("kind: AwsAccount")));
        QVERIFY(!dialog.manifest().contains(QStringLiteral("owner:")));
    }

    // An edit that breaks the manifest: the error at its line, Apply disabled; the template
    // is not regenerated over the edit until asked.
    void validatesAsYouType()
    {
        const KindRegistry kinds = builtInKinds();
        NewResourceDialog dialog(kinds, {});
        dialog.show();
        dialog.setKind(QStringLiteral("BlobContainer"));
        auto *editor = dialog.findChild<SpecEdit *>(QStringLiteral("manifestEdit"));
        QVERIFY(editor);
        QString text = dialog.manifest();
        text.replace(QStringLiteral("publicAccess: None"),
                     QStringLiteral("publicAccess: Everyone"));
        editor->setPlainText(text);
        auto *apply = dialog.findChild<QPushButton *>(QStringLiteral("applyButton"));
        QVERIFY(!apply->isEnabled());
        QTRY_VERIFY(!dialog.errorText().isEmpty());
        QVERIFY2(dialog.errorText().contains(QStringLiteral("spec.publicAccess")),
                 qPrintable(dialog.errorText()));
        QVERIFY(!dialog.isValid());
        QVERIFY(!apply->isEnabled());
        const int line = int(text.left(text.indexOf(QStringLiteral("publicAccess: Every")))
                                 .count(QLatin1Char('\n'))) +
                         1;
        QCOMPARE(editor->diagnosticLine(), line);

        // The name changes, the edited text stays.
        dialog.findChild<QLineEdit *>(QStringLiteral("nameEdit"))->setText(QStringLiteral("x1"));
        QVERIFY(dialog.manifest().contains(QStringLiteral("Everyone")));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("resetButton")),
                          Qt::LeftButton);
        QVERIFY(dialog.manifest().contains(QStringLiteral("name: x1")));
        QVERIFY(!dialog.manifest().contains(QStringLiteral("Everyone")));
        QTRY_VERIFY(dialog.isValid());
        QVERIFY(apply->isEnabled());
        QCOMPARE(editor->diagnosticLine(), 0);
    }
};

QTEST_MAIN(tst_NewResourceDialog)
#include "tst_newresourcedialog.moc"
