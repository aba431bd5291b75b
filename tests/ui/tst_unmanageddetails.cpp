// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "unmanageddetails.h"

#include "azurekinds.h"
#include "discoveredresource.h"
#include "kindregistry.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>

using namespace converge;

class tst_UnmanagedDetails final : public QObject
{
    Q_OBJECT

private slots:
    void claimIsOfferedOnlyWhereItCanWork()
    {
        KindRegistry kinds;
        AzureKinds::registerAll(kinds);
        UnmanagedDetails details(kinds);
        details.setClaimEnabled(true);
        auto *claim = details.findChild<QPushButton *>(QStringLiteral("claimButton"));
        auto *preview = details.findChild<QPlainTextEdit *>(QStringLiteral("claimPreview"));
        QVERIFY(claim && preview);

        DiscoveredResource container;
        container.kind = AzureKinds::blobContainer();
        container.name = QStringLiteral("invoices");
        container.owner = {AzureKinds::storageAccount(), QStringLiteral("devstore")};
        container.spec = QJsonObject{{QStringLiteral("publicAccess"), QStringLiteral("None")}};
        details.showItem(container);
        QVERIFY(claim->isEnabled());
        QVERIFY(preview->toPlainText().contains(QStringLiteral("kind: BlobContainer")));

        // A blob's bytes are only in the container: Claim is not offered, and says why where
        // it is greyed and in the preview, not in a refusal after the click.
        DiscoveredResource blob;
        blob.kind = AzureKinds::blob();
        blob.name = QStringLiteral("2026/01/inv-0001.json");
        blob.owner = {AzureKinds::blobContainer(), QStringLiteral("invoices")};
        details.showItem(blob);
        QVERIFY(!claim->isEnabled());
        QVERIFY2(claim->toolTip().startsWith(QStringLiteral("Cannot claim: ")),
                 qPrintable(claim->toolTip()));
        QVERIFY(preview->toPlainText().startsWith(QStringLiteral("# Claim is not offered: ")));

        // Back on a container, Claim is offered again; without a controller, never.
        details.showItem(container);
        QVERIFY(claim->isEnabled());
        details.setClaimEnabled(false);
        QVERIFY(!claim->isEnabled());
    }
};

QTEST_MAIN(tst_UnmanagedDetails)
#include "tst_unmanageddetails.moc"
