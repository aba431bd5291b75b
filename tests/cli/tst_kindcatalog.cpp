// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindcatalog.h"

#include "declaredservices.h"
#include "gcpkinds.h"

#include "clirunner.h"

#include "awskinds.h"

#include "kindregistry.h"
#include "services.h"

#include <QTest>

using namespace converge;
using converge::test::s;

namespace {

Kind catalogKind(const QString &name, const QString &description)
{
    Kind k;
    k.group = s("test.converge.dev");
    k.version = s("v1");
    k.name = name;
    k.description = description;
    return k;
}

} // namespace

class tst_KindCatalog final : public QObject
{
    Q_OBJECT

private slots:
    // Every kind the program has, once, under its provider and service.
    void groupsOfTheProgramsKinds()
    {
        const QList<KindCatalog::Group> groups = KindCatalog::groups(m_services.kinds());
        QStringList titles;
        QStringList listed;
        for (const KindCatalog::Group &g : groups) {
            titles << g.title();
            for (const Kind *k : g.kinds)
                listed << k->name;
        }
        // Azure, the AWS account, then one group per AWS service in name order (every declared
        // service's title, DynamoDB's among them); then Google Cloud's project and its services.
        QCOMPARE(titles.mid(0, 2), (QStringList{s("Azure Storage"), s("AWS")}));
        const qsizetype google = titles.indexOf(s("Google Cloud"));
        QVERIFY(google > 2);
        QStringList googleServices;
        for (const ServiceDeclaration &service : GcpKinds::declared().services())
            googleServices << s("Google Cloud ") + service.title;
        googleServices.sort(Qt::CaseInsensitive);
        QCOMPARE(titles.mid(google + 1), googleServices);
        QStringList services = titles.mid(2, google - 2);
        QStringList expected;
        for (const ServiceDeclaration &service : AwsKinds::declarations())
            expected << s("AWS ") + service.title;
        expected.sort(Qt::CaseInsensitive);
        QCOMPARE(services, expected);
        QVERIFY(services.contains(s("AWS SQS")));
        QVERIFY(services.contains(s("AWS DynamoDB")));
        QStringList sorted = listed;
        sorted.sort();
        QCOMPARE(sorted, m_services.kinds().names());
        QCOMPARE(groups.at(1).kinds.size(), 1);
        QCOMPARE(groups.at(1).kinds.constFirst()->name, s("AwsAccount"));
    }

    void text()
    {
        const Kind a = catalogKind(s("Alpha"), s("The first kind. More about it."));
        const Kind b = catalogKind(s("BetaGamma"), QString());
        const Kind c =
            catalogKind(s("Delta"), s("A kind whose first sentence is far too long to fit "
                                      "in one line of eighty columns, so it is cut. Next."));
        const QList<KindCatalog::Group> groups{
            {s("Azure"), s("Storage"), {&a, &b}},
            {s("AWS"), QString(), {&c}},
        };
        QCOMPARE(
            KindCatalog::text(groups),
            s("Azure Storage\n"
              "  Alpha      test.converge.dev/v1\n"
              "    The first kind.\n"
              "  BetaGamma  test.converge.dev/v1\n"
              "\n"
              "AWS\n"
              "  Delta      test.converge.dev/v1\n"
              "    A kind whose first sentence is far too long to fit in one line of eighty…\n"));
    }

private:
    Services m_services;
};

QTEST_GUILESS_MAIN(tst_KindCatalog)
#include "tst_kindcatalog.moc"
