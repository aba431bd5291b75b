// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Every declared Google Cloud kind on Google's emulators (DeclaredKindsSuite, from
// tests/data/declared/gcp/KIND.json), under a project of its own on the fixture's Pub/Sub
// emulator.
#include "declaredkindssuite.h"
#include "gcpfactory.h"
#include "gcpkinds.h"

#include "declaredservices.h"

using namespace converge;
using namespace converge::test;
using namespace std::chrono_literals;

class tst_GcpDeclaredKinds final : public DeclaredKindsSuite
{
    Q_OBJECT

    const QString m_projectId = uniqueGcpProject(QStringLiteral("declared"));

protected:
    QString missingBackend() const override
    {
        return m_emulators.hasPubSub() ? QString()
                                       : QStringLiteral("the Pub/Sub emulator not found (%1)")
                                             .arg(m_emulators.pubsubMissing);
    }
    Resource account(const QString &name = {}) const override
    {
        Resource r;
        r.apiVersion = GcpKinds::apiVersion();
        r.kind = GcpKinds::projectKind();
        r.metadata.name = name.isEmpty() ? accountName() : name;
        QJsonObject endpoints{{QStringLiteral("pubsub"), m_emulators.pubsubEndpoint().toString()}};
        if (m_emulators.hasSpanner())
            endpoints.insert(QStringLiteral("spanner"), m_emulators.spannerEndpoint().toString());
        r.spec = QJsonObject{
            {QStringLiteral("projectId"), m_projectId},
            {QStringLiteral("endpoints"), endpoints},
            {QStringLiteral("credential"), QJsonObject{{QStringLiteral("emulator"), true}}}};
        return r;
    }
    QString accountName() const override { return QStringLiteral("emulators"); }
    std::unique_ptr<Factory> makeFactory() const override
    {
        GcpFactory::Options options;
        options.declared.pollAfter = 50ms;
        return std::make_unique<GcpFactory>(options);
    }
    QString apiVersion() const override { return GcpKinds::apiVersion(); }
    QStringList declaredKinds() const override { return GcpKinds::declared().kindNames(); }
    QString dataFolder() const override { return QStringLiteral("declared/gcp"); }
};

QTEST_GUILESS_MAIN(tst_GcpDeclaredKinds)
#include "tst_gcpdeclaredkinds.moc"
