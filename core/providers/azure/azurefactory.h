// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azurestorageclient.h"
#include "factory.h"

#include <memory>

namespace converge {

class TokenCommandCache;

/// The Azure Storage provider: the kinds StorageAccount, BlobContainer, Blob, Queue and Table
/// (azure.converge.dev/v1) and their Managers over the data-plane REST APIs.
///
/// manager() resolves the StorageAccount's credential (emulator key, keychain, environment,
/// file, SAS or connection string) on the calling worker thread and gives the Managers of that
/// call one AzureStorageClient on the worker's HttpClient. Bearer tokens from token commands
/// are cached for all workers in one TokenCommandCache, in memory only.
class AzureFactory final : public Factory
{
public:
    struct Options
    {
        int listPageSize = 5000; ///< Azure's maximum; tests use small pages
        QString listPrefix;      ///< list() shows only names starting with this
        /// Sees every request attempt as sent; for tests that count requests.
        AzureStorageClient::RequestObserver requestObserver;
        /// Where bearer tokens are kept; null: a cache of this factory's own.
        std::shared_ptr<TokenCommandCache> tokens;
    };

    AzureFactory();
    explicit AzureFactory(Options options);

    QString provider() const override { return QStringLiteral("azure"); }
    void registerKinds(KindRegistry &registry) const override;
    QStringList kinds() const override;
    QStringList accountKinds() const override;
    Outcome<std::shared_ptr<Manager>> manager(const QString &kind, const Resource &account,
                                              const ManagerEnvironment &env) override;

private:
    Options m_options;
    std::shared_ptr<TokenCommandCache> m_tokens;
};

} // namespace converge
