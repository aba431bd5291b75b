// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "buildinfo.h"

#include <QRegularExpression>
#include <QTest>

using namespace converge;

class tst_BuildInfo final : public QObject
{
    Q_OBJECT

private slots:
    void versionIsSemantic()
    {
        static const QRegularExpression semver(QStringLiteral("^\\d+\\.\\d+\\.\\d+$"));
        QVERIFY2(semver.match(BuildInfo::version()).hasMatch(), qPrintable(BuildInfo::version()));
    }

    void userAgentNamesVersionAndQt()
    {
        const QString agent = BuildInfo::userAgent();
        QVERIFY(agent.startsWith(QStringLiteral("Converge/") + BuildInfo::version()));
        QVERIFY(agent.contains(QString::fromLatin1(qVersion())));
    }

    void applicationIdIsReverseDns()
    {
        QCOMPARE(BuildInfo::applicationId(), QStringLiteral("dev.converge.Converge"));
    }
};

QTEST_GUILESS_MAIN(tst_BuildInfo)
#include "tst_buildinfo.moc"
