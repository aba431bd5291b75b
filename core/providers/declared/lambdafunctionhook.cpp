// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "lambdafunctionhook.h"

#include "lambdacode.h"
#include "secretreference.h"

#include <QJsonArray>

namespace converge {

namespace {

const QString lambdaCodeField = QStringLiteral("code");
const QString lambdaShaMember = QStringLiteral("CodeSha256");
const QString lambdaVariables = QStringLiteral("Variables");

} // namespace

Outcome<LambdaCode::Package> LambdaFunctionHook::packageOf(const QJsonObject &code)
{
    LambdaCode::Package package = LambdaCode::read(code.value(QStringLiteral("file")).toString());
    if (!package.error.isEmpty())
        return BackendError::make(BackendError::Category::Invalid, QStringLiteral("InvalidCode"),
                                  QStringLiteral("spec.code.file: ") + package.error);
    return package;
}

Outcome<QString> LambdaFunctionHook::shaOf(const QJsonObject &code)
{
    const QString path = code.value(QStringLiteral("file")).toString();
    const QByteArray stamp = LambdaCode::stamp(path);
    if (const auto it = m_shas.constFind(path);
        !stamp.isEmpty() && it != m_shas.cend() && it->first == stamp)
        return it->second;
    const auto package = packageOf(code);
    if (!package)
        return package.error();
    m_shas.insert(path, {stamp, package.value().sha256});
    return package.value().sha256;
}

Outcome<QJsonObject> LambdaFunctionHook::codeMembers(const QJsonObject &code)
{
    QJsonObject members;
    if (code.contains(QStringLiteral("file"))) {
        const auto package = packageOf(code);
        if (!package)
            return package.error();
        members.insert(QStringLiteral("ZipFile"),
                       QString::fromLatin1(package.value().zip.toBase64()));
    }
    const auto copy = [&](const char *field, const char *member) {
        const QString value = code.value(QLatin1String(field)).toString();
        if (!value.isEmpty())
            members.insert(QLatin1String(member), value);
    };
    copy("s3Bucket", "S3Bucket");
    copy("s3Key", "S3Key");
    copy("s3ObjectVersion", "S3ObjectVersion");
    copy("imageURI", "ImageUri");
    return members;
}

Outcome<QJsonObject> LambdaFunctionHook::completeInput(const DeclaredCall &call, QJsonObject input,
                                                       const QJsonObject &spec,
                                                       const Observation *latest,
                                                       QStringList *secrets)
{
    Q_UNUSED(latest)
    if (input.contains(QStringLiteral("Code"))) {
        input.remove(QStringLiteral("Code"));
        const auto code = codeMembers(spec.value(lambdaCodeField).toObject());
        if (!code)
            return code.error();
        if (call.operation == QLatin1String("UpdateFunctionCode")) {
            for (auto it = code.value().begin(); it != code.value().end(); ++it)
                input.insert(it.key(), it.value());
        } else {
            input.insert(QStringLiteral("Code"), code.value());
        }
    }
    QJsonObject environment = input.value(QStringLiteral("Environment")).toObject();
    QJsonObject variables = environment.value(lambdaVariables).toObject();
    bool read = false;
    for (auto it = variables.begin(); it != variables.end(); ++it) {
        if (!it.value().isObject())
            continue;
        Outcome<QString> value =
            SecretReference::resolve(it.value().toObject(), m_keychain,
                                     QStringLiteral("spec.environment.variables.") + it.key());
        if (!value)
            return value.error();
        secrets->append(value.value());
        it.value() = value.value();
        read = true;
    }
    if (read) {
        environment.insert(lambdaVariables, variables);
        input.insert(QStringLiteral("Environment"), environment);
    }
    return input;
}

void LambdaFunctionHook::listed(Observation &o)
{
    o.spec.remove(QStringLiteral("environment"));
}

std::optional<BackendError> LambdaFunctionHook::observe(Observation &o, const QJsonObject &resource,
                                                        const QJsonObject &desired,
                                                        const Target &target,
                                                        const QSet<QString> &sent)
{
    // Layers come back as {Arn, CodeSize}; the spec lists their ARNs.
    if (const QJsonValue layers = resource.value(QStringLiteral("Layers")); layers.isArray()) {
        QJsonArray arns;
        for (const QJsonValue &layer : layers.toArray())
            arns.append(layer.isObject() ? layer[QStringLiteral("Arn")] : layer);
        o.spec.insert(QStringLiteral("layers"), arns);
    }
    const QString update = resource.value(QStringLiteral("LastUpdateStatus")).toString();
    if (update == QLatin1String("InProgress")) {
        o.inProgress = true;
        o.progress = QStringLiteral("LastUpdateStatus is InProgress");
    } else if (update == QLatin1String("Failed") &&
               target.resource.status.ready().observedGeneration >=
                   target.resource.metadata.generation) {
        // An update Lambda took and then failed (a layer it cannot read, a subnet without
        // room): the function runs as before. Said until the spec changes, which is tried.
        return BackendError::make(
            BackendError::Category::Terminal, QStringLiteral("LastUpdateFailed"),
            QStringLiteral("the last update of LambdaFunction %1 failed (%2): %3; change the "
                           "spec to try again")
                .arg(o.name,
                     resource.value(QStringLiteral("LastUpdateStatusReasonCode")).toString(),
                     resource.value(QStringLiteral("LastUpdateStatusReason")).toString()));
    }
    if (auto failed = observeCode(o, resource, desired, target, sent))
        return failed;
    return observeEnvironment(o, desired);
}

std::optional<BackendError> LambdaFunctionHook::observeCode(Observation &o,
                                                            const QJsonObject &resource,
                                                            const QJsonObject &desired,
                                                            const Target &target,
                                                            const QSet<QString> &sent)
{
    const QJsonObject code = desired.value(lambdaCodeField).toObject();
    const QString actual = resource.value(lambdaShaMember).toString();
    QString wanted = code.value(QStringLiteral("sha256")).toString();
    if (code.contains(QStringLiteral("file"))) {
        const auto sha = shaOf(code);
        if (!sha)
            return sha.error();
        wanted = sha.value();
    }
    if (!wanted.isEmpty() || code.isEmpty()) {
        o.spec.insert(lambdaCodeField,
                      wanted == actual && !code.isEmpty()
                          ? QJsonValue(code)
                          : QJsonValue(QJsonObject{{QStringLiteral("sha256"), actual}}));
        return std::nullopt;
    }
    // Code in S3 (or an image) without its sha: deployed by this reconcile, or as last
    // deployed while Lambda's sha stays the one seen then.
    const QJsonObject before = target.resource.status.observed;
    const QJsonValue deployed = before.value(QStringLiteral("spec"))[lambdaCodeField];
    if (sent.contains(lambdaCodeField))
        o.spec.insert(lambdaCodeField, code);
    else if (deployed.isObject() && before.value(lambdaShaMember).toString() == actual)
        o.spec.insert(lambdaCodeField, deployed);
    else
        o.spec.insert(lambdaCodeField, QJsonObject{{QStringLiteral("sha256"), actual}});
    return std::nullopt;
}

std::optional<BackendError> LambdaFunctionHook::observeEnvironment(Observation &o,
                                                                   const QJsonObject &desired) const
{
    const QJsonObject wantedVariables =
        desired.value(QStringLiteral("environment"))[QStringLiteral("variables")].toObject();
    QJsonObject environment = o.spec.value(QStringLiteral("environment")).toObject();
    QJsonObject variables = environment.value(QStringLiteral("variables")).toObject();
    bool changed = false;
    for (auto it = wantedVariables.begin(); it != wantedVariables.end(); ++it) {
        if (!it.value().isObject())
            continue;
        const QJsonObject reference = it.value().toObject();
        Outcome<QString> wanted = SecretReference::resolve(
            reference, m_keychain, QStringLiteral("spec.environment.variables.") + it.key());
        if (!wanted)
            return wanted.error();
        // Neither value is kept: the observation says only whether they agree.
        const auto held = variables.constFind(it.key());
        if (held == variables.constEnd())
            continue;
        variables.insert(it.key(),
                         held->toString() == wanted.value()
                             ? QJsonValue(reference)
                             : QJsonValue(QJsonObject{
                                   {QStringLiteral("differs"),
                                    QStringLiteral("the value in Lambda is not the one %1 holds")
                                        .arg(SecretReference::describe(reference))}}));
        changed = true;
    }
    if (changed) {
        environment.insert(QStringLiteral("variables"), variables);
        o.spec.insert(QStringLiteral("environment"), environment);
    }
    return std::nullopt;
}

} // namespace converge
