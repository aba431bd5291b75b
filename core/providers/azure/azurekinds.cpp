// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azurekinds.h"

#include "azureaccount.h"
#include "httpclient.h"
#include "kindregistry.h"
#include "patterns.h"
#include "resource.h"

#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

namespace converge {

namespace {

using F = FieldSchema;

const QString containerHint = QStringLiteral(
    "lower-case letters, digits and single hyphens, starting and ending with a letter or digit");
const QString tableHint =
    QStringLiteral("3–63 letters and digits starting with a letter, and not \"tables\"");
const QString blobHint =
    QStringLiteral("no control characters or backslashes, not ending with '.' or '/'");

Kind baseKind(const QString &name, const QString &owner, const QString &description)
{
    Kind kind;
    kind.group = AzureKinds::group();
    kind.version = AzureKinds::version();
    kind.name = name;
    kind.ownerKind = owner;
    kind.description = description;
    if (!owner.isEmpty())
        kind.backendNameField = QStringLiteral("azureName");
    return kind;
}

F ownerField(const QString &ownerKind)
{
    // The owner is the engine's business, not a backend fact: it is never drift.
    return F::object(
               QStringLiteral("owner"),
               {F::string(
                    QStringLiteral("name"),
                    QStringLiteral("metadata.name of the %1 in the same workspace").arg(ownerKind))
                    .setRequired()
                    .setLength(1, 253)},
               QStringLiteral("The %1 this resource belongs to.").arg(ownerKind))
        .setRequired()
        .setImmutable()
        .setCompared(false);
}

F metadataField(const QString &what)
{
    F value = F::string(QStringLiteral("value"));
    value.setPattern(AzureKinds::metadataValuePattern(),
                     QStringLiteral("printable ASCII without leading or trailing spaces"));
    F map = F::map(QStringLiteral("metadata"), value,
                   QStringLiteral("User-defined name/value pairs stored with the %1. Names are "
                                  "C# identifiers and Azure treats them case-insensitively; "
                                  "values are printable ASCII. When given, the map is managed "
                                  "whole: names that are not listed are removed.")
                       .arg(what));
    map.setPattern(AzureKinds::metadataKeyPattern(),
                   QStringLiteral("a letter or '_' followed by letters, digits and '_'"));
    map.setCheck([](const QJsonValue &v) {
        QStringList seen;
        for (const QString &key : v.toObject().keys()) {
            if (seen.contains(key.toLower()))
                return QStringLiteral("metadata names are case-insensitive: \"%1\" is given "
                                      "twice")
                    .arg(key);
            seen.append(key.toLower());
        }
        return QString();
    });
    return map;
}

QString urlError(const QJsonValue &v)
{
    const QUrl url(v.toString(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return QStringLiteral("\"%1\" is not an http(s) URL").arg(v.toString());
    if (url.hasQuery() || url.hasFragment())
        return QStringLiteral("an endpoint has no query or fragment (a SAS token belongs in "
                              "credential.sasEnv, never in the workspace)");
    return {};
}

F endpointField(const QString &service, const QString &port)
{
    return F::string(service, QStringLiteral("The %1 service URL. Default: "
                                             "https://<accountName>.%1.core.windows.net. Azurite: "
                                             "http://127.0.0.1:%2/devstoreaccount1.")
                                  .arg(service, port))
        .setCheck(urlError);
}

QStringList chosenCredentials(const QJsonObject &credential)
{
    QStringList chosen;
    if (credential.value(QStringLiteral("emulator")).toBool())
        chosen << QStringLiteral("emulator");
    for (const QString &name : AzureAccount::credentialSources()) {
        if (name != QLatin1String("emulator") && credential.contains(name))
            chosen << name;
    }
    return chosen;
}

QString accountSpecError(const QJsonValue &value)
{
    const QJsonObject spec = value.toObject();
    const QJsonObject credential = spec.value(QStringLiteral("credential")).toObject();
    const QString account = spec.value(QStringLiteral("accountName")).toString();
    const bool insecure = spec.value(QStringLiteral("allowInsecureHttp")).toBool();
    const QJsonObject endpoints = spec.value(QStringLiteral("endpoints")).toObject();
    const bool fromConnectionString = credential.contains(QStringLiteral("connectionStringEnv"));
    for (const QString &service : AzureAccount::services()) {
        // A connection string may supply the endpoints the spec leaves out: checked later.
        if (!endpoints.contains(service) && fromConnectionString)
            continue;
        const QUrl url = endpoints.contains(service)
                             ? QUrl(endpoints.value(service).toString())
                             : AzureAccount::defaultEndpoint(account, service);
        const bool loopback = HttpClient::isLoopbackHost(url.host());
        if (credential.value(QStringLiteral("emulator")).toBool() && !loopback)
            return QStringLiteral("credential.emulator uses the emulator's published key, "
                                  "which is allowed only when every endpoint is on a loopback "
                                  "host; endpoints.%1 is %2. Set spec.endpoints to the "
                                  "emulator's URLs (e.g. http://127.0.0.1:10000/devstoreaccount1) "
                                  "or use another credential")
                .arg(service, url.toDisplayString());
        if (url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0 && !loopback &&
            !insecure)
            return QStringLiteral("endpoints.%1 uses plain http to %2, which would send "
                                  "credentials unencrypted; use https, or set "
                                  "allowInsecureHttp: true if you really mean it")
                .arg(service, url.host());
    }
    return {};
}

QString exportOnly(const QString &description)
{
    return description + QStringLiteral(" Not used by Converge, which connects to an existing "
                                        "account; written by export --for aso.");
}

F exportField(const QString &name, const QString &description)
{
    return F::string(name, exportOnly(description))
        .setLength(1, 64)
        .setPattern(QStringLiteral("[A-Za-z0-9._()-]+"),
                    QStringLiteral("letters, digits, '.', '_', '-', '(' and ')'"))
        .setCompared(false);
}

} // namespace

QStringList AzureKinds::skuNames()
{
    return {QStringLiteral("PremiumV2_LRS"),   QStringLiteral("PremiumV2_ZRS"),
            QStringLiteral("Premium_LRS"),     QStringLiteral("Premium_ZRS"),
            QStringLiteral("StandardV2_GRS"),  QStringLiteral("StandardV2_GZRS"),
            QStringLiteral("StandardV2_LRS"),  QStringLiteral("StandardV2_ZRS"),
            QStringLiteral("Standard_GRS"),    QStringLiteral("Standard_GZRS"),
            QStringLiteral("Standard_LRS"),    QStringLiteral("Standard_RAGRS"),
            QStringLiteral("Standard_RAGZRS"), QStringLiteral("Standard_ZRS")};
}

QStringList AzureKinds::accountKinds()
{
    return {QStringLiteral("BlobStorage"), QStringLiteral("BlockBlobStorage"),
            QStringLiteral("FileStorage"), QStringLiteral("Storage"), QStringLiteral("StorageV2")};
}

QStringList AzureKinds::names()
{
    return {storageAccount(), blobContainer(), blob(), queue(), table()};
}

Kind AzureKinds::storageAccountKind()
{
    Kind kind = baseKind(storageAccount(), QString(),
                         QStringLiteral("A connection to an Azure Storage account (or Azurite): "
                                        "its endpoints and where its credential comes from. "
                                        "Nothing is created or deleted in Azure for it; Ready "
                                        "says that the account answers and accepts the "
                                        "credential."));

    F credential = F::object(
        QStringLiteral("credential"),
        {F::boolean(QStringLiteral("emulator"),
                    QStringLiteral("Use the development key that Microsoft publishes for "
                                   "Azurite's devstoreaccount1. Allowed only when every "
                                   "endpoint is on a loopback host.")),
         F::string(QStringLiteral("keychain"),
                   QStringLiteral("The name of an entry holding the account key in the OS "
                                  "keychain (service \"Converge\")."))
             .setLength(1, 256),
         F::string(QStringLiteral("env"),
                   QStringLiteral("The environment variable that holds the account key."))
             .setPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"),
                         QStringLiteral("an environment variable name")),
         F::string(QStringLiteral("file"),
                   QStringLiteral("A file of name=value lines, readable by you only (mode "
                                  "0600); the key is the value of the line named after "
                                  "accountName. Relative paths are resolved against the "
                                  "working directory of the Converge process."))
             .setLength(1, 4096),
         F::string(QStringLiteral("sasEnv"),
                   QStringLiteral("The environment variable that holds an account SAS token "
                                  "(sv=…&sig=…); it is appended to every request URL and never "
                                  "logged. It needs the services used (ss=bqt) and the "
                                  "resource types s, c and o (srt=sco)."))
             .setPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"),
                         QStringLiteral("an environment variable name")),
         F::string(QStringLiteral("connectionStringEnv"),
                   QStringLiteral("The environment variable that holds a connection string "
                                  "(AccountName=…;AccountKey=… or SharedAccessSignature=…). "
                                  "Its endpoints are used where spec.endpoints says nothing."))
             .setPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"),
                         QStringLiteral("an environment variable name")),
         F::object(QStringLiteral("azureCli"),
                   {F::string(QStringLiteral("tenant"),
                              QStringLiteral("The Microsoft Entra tenant (ID or domain) to "
                                             "sign in to; the CLI's default when left out."))
                        .setLength(1, 256),
                    F::string(QStringLiteral("subscription"),
                              QStringLiteral("The subscription (name or ID) whose tenant gives "
                                             "the token."))
                        .setLength(1, 256)},
                   QStringLiteral("A Microsoft Entra ID token of the person signed in to the "
                                  "Azure CLI (az login), as `az account get-access-token "
                                  "--resource https://storage.azure.com/` gives it; sent as a "
                                  "bearer token, kept in memory only and asked again before it "
                                  "expires. The person needs a data role on the account "
                                  "(Storage Blob/Queue/Table Data Contributor).")),
         F::object(QStringLiteral("tokenCommand"),
                   {F::list(QStringLiteral("command"),
                            F::string(QStringLiteral("argument")).setLength(0, 4096),
                            QStringLiteral("The program and its arguments (no shell)."))
                        .setRequired()},
                   QStringLiteral("A program that prints a token for https://storage.azure.com "
                                  "as JSON in the Azure CLI's shape (accessToken, and "
                                  "expires_on in Unix seconds or expiresOn); run again before "
                                  "the token expires, never stored."))},
        QStringLiteral("Where the credential comes from: exactly one of emulator, keychain, "
                       "env, file, sasEnv, connectionStringEnv, azureCli, tokenCommand; {} for "
                       "an account not connected yet. The secret itself is never written in a "
                       "manifest or the workspace."));
    credential.setRequired().setCompared(false).setCheck([](const QJsonValue &v) {
        const QStringList chosen = chosenCredentials(v.toObject());
        // `credential: {}` is an account not connected yet (one an ASO import brought): it
        // validates, and stays Ready False until it is connected. `emulator: false` is not that.
        if (chosen.size() == 1 || v.toObject().isEmpty())
            return QString();
        if (chosen.isEmpty())
            return QStringLiteral("exactly one of %1 must be given (emulator: true for "
                                  "Azurite)")
                .arg(AzureAccount::credentialSources().join(QStringLiteral(", ")));
        return QStringLiteral("exactly one of %1 must be given, not %2")
            .arg(AzureAccount::credentialSources().join(QStringLiteral(", ")),
                 chosen.join(QStringLiteral(" and ")));
    });

    kind.spec = F::object(
        QStringLiteral("spec"),
        {F::string(QStringLiteral("accountName"),
                   QStringLiteral("The storage account's name (devstoreaccount1 for Azurite)."))
             .setRequired()
             .setPattern(accountNamePattern(),
                         QStringLiteral("3–24 lower-case letters and digits")),
         F::object(QStringLiteral("endpoints"),
                   {endpointField(QStringLiteral("blob"), QStringLiteral("10000")),
                    endpointField(QStringLiteral("queue"), QStringLiteral("10001")),
                    endpointField(QStringLiteral("table"), QStringLiteral("10002"))},
                   QStringLiteral("Service URLs; each defaults to Azure's public endpoint of "
                                  "the account.")),
         F::boolean(QStringLiteral("allowInsecureHttp"),
                    QStringLiteral("Allow plain http to hosts other than loopback. Signed "
                                   "requests and SAS tokens then travel unencrypted."))
             .setDefault(false)
             .setCompared(false),
         credential,
         // What the data plane cannot observe and Azure Service Operator needs: kept for
         // `converge export --for aso`, never sent and never drift.
         exportField(QStringLiteral("location"),
                     QStringLiteral("The account's Azure region, e.g. westeurope.")),
         F::enumeration(QStringLiteral("sku"), AzureKinds::skuNames(),
                        exportOnly(QStringLiteral("The account's SKU, e.g. Standard_LRS.")))
             .setCompared(false),
         F::enumeration(QStringLiteral("accountKind"), AzureKinds::accountKinds(),
                        exportOnly(QStringLiteral("The account's kind, e.g. StorageV2.")))
             .setCompared(false),
         exportField(QStringLiteral("resourceGroup"),
                     QStringLiteral("The name of the resource group that holds the account."))
             .setLength(1, 90)});
    kind.spec.setCheck(accountSpecError);
    return kind;
}

Kind AzureKinds::blobContainerKind()
{
    Kind kind = baseKind(blobContainer(), storageAccount(),
                         QStringLiteral("A blob container in a storage account."));
    kind.spec = F::object(
        QStringLiteral("spec"),
        {ownerField(storageAccount()),
         F::string(QStringLiteral("azureName"),
                   QStringLiteral("The container's name in Azure; defaults to metadata.name. "
                                  "3–63 lower-case letters, digits and single hyphens. Cannot "
                                  "change after creation."))
             .setImmutable()
             .setLength(3, 63)
             .setPattern(containerNamePattern(), containerHint),
         F::enumeration(
             QStringLiteral("publicAccess"),
             {QStringLiteral("None"), QStringLiteral("Blob"), QStringLiteral("Container")},
             QStringLiteral("Anonymous read access: None, Blob (blobs only) or "
                            "Container (blobs and the listing)."))
             .setDefault(QStringLiteral("None")),
         metadataField(QStringLiteral("container"))});
    return kind;
}

Kind AzureKinds::blobKind()
{
    Kind kind = baseKind(blob(), blobContainer(),
                         QStringLiteral("A block blob: inline text, a local file, or a copy of "
                                        "another blob. Drift is judged by the content's MD5."));
    kind.folderDelimiter = QStringLiteral("/");
    kind.claimRefusal = QStringLiteral(
        "a blob's bytes are only in the container: declare it with content, contentFile or "
        "copySource and apply that");
    F spec = F::object(
        QStringLiteral("spec"),
        {ownerField(blobContainer()),
         F::string(QStringLiteral("azureName"),
                   QStringLiteral("The blob's path in its container (may contain '/'); "
                                  "defaults to metadata.name. Cannot change after creation."))
             .setImmutable()
             .setLength(1, 1024)
             .setPattern(blobNamePattern(), blobHint),
         F::string(QStringLiteral("content"), QStringLiteral("The blob's content as UTF-8 text.")),
         F::string(QStringLiteral("contentFile"),
                   QStringLiteral("A local file whose bytes are the blob's content. Relative "
                                  "paths are resolved against the working directory of the "
                                  "Converge process (the window, the CLI), not the manifest's "
                                  "folder. Read on every reconcile to compare its MD5."))
             .setLength(1, 4096),
         F::string(QStringLiteral("copySource"),
                   QStringLiteral("The URL of a blob to copy (Azure copies asynchronously; "
                                  "Ready waits for the copy): a blob of the same account, "
                                  "copied with the account's credential, or a public one. A "
                                  "URL with a SAS (sig=) is refused: it would be stored in "
                                  "the workspace."))
             .setCheck([](const QJsonValue &v) {
                 const QUrl url(v.toString(), QUrl::StrictMode);
                 const QString scheme = url.scheme().toLower();
                 if (!url.isValid() || url.host().isEmpty() ||
                     (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
                     return QStringLiteral("\"%1\" is not an http(s) URL").arg(v.toString());
                 // A SAS is a secret: in the spec it would be stored in the workspace, shown in
                 // the window and written by export.
                 const QUrlQuery query(url);
                 for (const auto &[name, value] : query.queryItems()) {
                     if (name.compare(QLatin1String("sig"), Qt::CaseInsensitive) == 0)
                         return QStringLiteral(
                             "the URL carries a SAS (sig=), which would be stored in the "
                             "workspace; give the URL without its query: a blob of the same "
                             "storage account is copied with the account's own credential "
                             "(keychain, env or file), and a blob of another account must be "
                             "readable without one (its container's publicAccess Blob)");
                 }
                 return QString();
             }),
         F::string(QStringLiteral("contentType"), QStringLiteral("The blob's Content-Type."))
             .setDefault(QStringLiteral("application/octet-stream"))
             .setLength(1, 256),
         metadataField(QStringLiteral("blob"))});
    spec.setCheck([](const QJsonValue &v) {
        const QJsonObject o = v.toObject();
        int count = 0;
        for (const char *name : {"content", "contentFile", "copySource"})
            count += o.contains(QLatin1String(name)) ? 1 : 0;
        return count == 1 ? QString()
                          : QStringLiteral("exactly one of content, contentFile, copySource "
                                           "must be given");
    });
    kind.spec = spec;
    return kind;
}

Kind AzureKinds::queueKind()
{
    Kind kind = baseKind(queue(), storageAccount(),
                         QStringLiteral("A storage queue in a storage account."));
    kind.spec = F::object(
        QStringLiteral("spec"),
        {ownerField(storageAccount()),
         F::string(QStringLiteral("azureName"),
                   QStringLiteral("The queue's name in Azure; defaults to metadata.name. 3–63 "
                                  "lower-case letters, digits and single hyphens. Cannot "
                                  "change after creation."))
             .setImmutable()
             .setLength(3, 63)
             .setPattern(containerNamePattern(), containerHint),
         metadataField(QStringLiteral("queue"))});
    return kind;
}

Kind AzureKinds::tableKind()
{
    Kind kind = baseKind(table(), storageAccount(),
                         QStringLiteral("A table in a storage account's Table service."));
    kind.spec = F::object(
        QStringLiteral("spec"),
        {ownerField(storageAccount()),
         F::string(QStringLiteral("azureName"),
                   QStringLiteral("The table's name in Azure; defaults to metadata.name. 3–63 "
                                  "letters and digits starting with a letter, not \"tables\"; "
                                  "Azure compares table names case-insensitively. Cannot "
                                  "change after creation."))
             .setImmutable()
             .setPattern(tableNamePattern(), tableHint)});
    return kind;
}

Kind AzureKinds::kind(const QString &name)
{
    if (name == storageAccount())
        return storageAccountKind();
    if (name == blobContainer())
        return blobContainerKind();
    if (name == blob())
        return blobKind();
    if (name == queue())
        return queueKind();
    if (name == table())
        return tableKind();
    return {};
}

void AzureKinds::registerAll(KindRegistry &registry)
{
    for (const QString &name : names())
        registry.add(kind(name));
}

QString AzureKinds::azureName(const Resource &resource)
{
    const QString name = resource.spec.value(QStringLiteral("azureName")).toString();
    return name.isEmpty() ? resource.metadata.name : name;
}

QString AzureKinds::nameError(const QString &kind, const QString &name)
{
    const auto matches = [&name](const QString &pattern) {
        return Patterns::matchesWhole(name, pattern);
    };
    if (kind == blobContainer() || kind == queue()) {
        if (name.size() < 3 || name.size() > 63 || !matches(containerNamePattern()))
            return QStringLiteral("\"%1\" is not a valid %2 name (3–63 %3)")
                .arg(name, kind == queue() ? QStringLiteral("queue") : QStringLiteral("container"),
                     containerHint);
    } else if (kind == table()) {
        if (!matches(tableNamePattern()))
            return QStringLiteral("\"%1\" is not a valid table name (%2)").arg(name, tableHint);
    } else if (kind == blob()) {
        if (name.isEmpty() || name.size() > 1024 || !matches(blobNamePattern()))
            return QStringLiteral("\"%1\" is not a valid blob name (1–1024 characters, %2)")
                .arg(name, blobHint);
    } else if (kind == storageAccount()) {
        if (!matches(accountNamePattern()))
            return QStringLiteral("\"%1\" is not a valid storage account name (3–24 "
                                  "lower-case letters and digits)")
                .arg(name);
    }
    return {};
}

} // namespace converge
