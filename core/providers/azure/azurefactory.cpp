// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azurefactory.h"

#include "azurekinds.h"
#include "blobcontainermanager.h"
#include "blobmanager.h"
#include "queuemanager.h"
#include "storageaccountmanager.h"
#include "tablemanager.h"
#include "tokencommandcache.h"

namespace converge {

AzureFactory::AzureFactory()
    : AzureFactory(Options{})
{}

AzureFactory::AzureFactory(Options options)
    : m_options(std::move(options))
    , m_tokens(m_options.tokens ? m_options.tokens : std::make_shared<TokenCommandCache>())
{
    m_options.listPageSize = std::clamp(m_options.listPageSize, 1, 5000);
}

void AzureFactory::registerKinds(KindRegistry &registry) const
{
    AzureKinds::registerAll(registry);
}

QStringList AzureFactory::kinds() const
{
    return AzureKinds::names();
}

QStringList AzureFactory::accountKinds() const
{
    return {AzureKinds::storageAccount()};
}

Outcome<std::shared_ptr<Manager>>
AzureFactory::manager(const QString &kind, const Resource &account, const ManagerEnvironment &env)
{
    if (!kinds().contains(kind)) {
        BackendError error = AzureStorageClient::invalid(
            QStringLiteral("UnknownKind"),
            QStringLiteral("the Azure provider has no kind %1").arg(kind));
        error.category = BackendError::Category::Terminal;
        return error;
    }
    if (account.kind != AzureKinds::storageAccount()) {
        BackendError error = AzureStorageClient::invalid(
            QStringLiteral("OwnerMissing"),
            QStringLiteral("%1 is not under a StorageAccount").arg(account.key().toString()));
        error.category = BackendError::Category::Terminal;
        return error;
    }
    Outcome<AzureAccount> resolved =
        AzureAccount::fromSpec(account.spec, env.credentials, m_tokens);
    if (!resolved)
        return resolved.error();

    AzureStorageClient::Options clientOptions;
    clientOptions.listPageSize = m_options.listPageSize;
    clientOptions.listPrefix = m_options.listPrefix;
    clientOptions.observer = m_options.requestObserver;
    auto client = std::make_shared<AzureStorageClient>(resolved.value(), env.http, env.isCancelled,
                                                       clientOptions);
    std::shared_ptr<Manager> made;
    if (kind == AzureKinds::storageAccount())
        made = std::make_shared<StorageAccountManager>(client);
    else if (kind == AzureKinds::blobContainer())
        made = std::make_shared<BlobContainerManager>(client);
    else if (kind == AzureKinds::blob())
        made = std::make_shared<BlobManager>(client);
    else if (kind == AzureKinds::queue())
        made = std::make_shared<QueueManager>(client);
    else
        made = std::make_shared<TableManager>(client);
    return made;
}

} // namespace converge
