// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindcatalog.h"

#include "awskinds.h"
#include "azurekinds.h"
#include "gcpkinds.h"
#include "kindexplainer.h"
#include "kindregistry.h"

#include <algorithm>

namespace converge {

namespace {

const QString azure = QStringLiteral("Azure");
const QString aws = QStringLiteral("AWS");
const QString gcp = QStringLiteral("Google Cloud");

// Where a kind belongs: by its provider's group, and within AWS and Google Cloud by its service
// (Kind::service, as the window's tree groups them; the account has none).
std::pair<QString, QString> placeOf(const Kind &kind)
{
    if (kind.group == AzureKinds::group())
        return {azure, QStringLiteral("Storage")};
    if (kind.group == GcpKinds::group())
        return {gcp, kind.service};
    if (kind.group != AwsKinds::group())
        return {kind.group, QString()};
    return {aws, kind.service};
}

int providerRank(const QString &provider)
{
    return provider == azure ? 0 : provider == aws ? 1 : provider == gcp ? 2 : 3;
}

} // namespace

QString KindCatalog::Group::title() const
{
    return service.isEmpty() ? provider : provider + QLatin1Char(' ') + service;
}

QList<KindCatalog::Group> KindCatalog::groups(const KindRegistry &registry)
{
    QList<Group> out;
    for (const QString &name : registry.names()) { // sorted: so is every group
        const Kind *kind = registry.find(name);
        const auto [provider, service] = placeOf(*kind);
        auto it = std::find_if(out.begin(), out.end(), [&](const Group &g) {
            return g.provider == provider && g.service == service;
        });
        if (it == out.end())
            it = out.insert(out.end(), Group{provider, service, {}});
        it->kinds << kind;
    }
    std::sort(out.begin(), out.end(), [](const Group &a, const Group &b) {
        const int ra = providerRank(a.provider);
        const int rb = providerRank(b.provider);
        if (ra != rb)
            return ra < rb;
        if (a.provider != b.provider)
            return a.provider < b.provider;
        return a.service.compare(b.service, Qt::CaseInsensitive) < 0;
    });
    return out;
}

QString KindCatalog::text(const QList<Group> &groups)
{
    qsizetype nameWidth = 0;
    for (const Group &g : groups) {
        for (const Kind *kind : g.kinds)
            nameWidth = std::max(nameWidth, kind->name.size());
    }
    const QString indent = QStringLiteral("    ");
    QStringList sections;
    for (const Group &g : groups) {
        QString section = g.title() + QLatin1Char('\n');
        for (const Kind *kind : g.kinds) {
            section += QStringLiteral("  ") + kind->name.leftJustified(nameWidth + 2) +
                       kind->apiVersion() + QLatin1Char('\n');
            const QString first =
                KindExplainer::summary(kind->description, KindExplainer::width - indent.size());
            if (!first.isEmpty())
                section += indent + first + QLatin1Char('\n');
        }
        sections << section;
    }
    return sections.join(QLatin1Char('\n'));
}

} // namespace converge
