// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"
#include "lambdacode.h"

#include <QHash>

namespace converge {

/// The `lambdaFunction` hook: what AWS Lambda's model cannot say as data.
/// - `code.file` (a .zip, or a folder zipped reproducibly: LambdaCode) is sent as the create's
///   `Code.ZipFile`, and UpdateFunctionCode takes code's members beside FunctionName rather than
///   under Code. The code is observed as the spec gives it when Lambda's CodeSha256 is the
///   file's (or the `code.sha256` the spec gives for code in S3); otherwise as `{sha256: …}`,
///   Lambda's, so that the Delta names it. Code in S3 without a sha256 is observed as it was
///   last deployed while CodeSha256 stays the same.
/// - `environment.variables` values given by reference are read where they are sent, and
///   observed as the reference when Lambda holds that value, or as a marker when not: neither
///   value is kept.
/// - `layers` are read back as objects ({Arn, CodeSize}) and observed as their ARNs.
/// - A listing leaves the environment out: any of its values may be one that a spec gives by
///   reference, and a listing is kept as it is (the window's browse); a get (a claim's) reads it.
/// - LastUpdateStatus InProgress is an operation in progress, Failed an error that says why.
class LambdaFunctionHook final : public DeclaredHook
{
public:
    /// `keychain` (may be null) must outlive the hook.
    explicit LambdaFunctionHook(CredentialStore *keychain)
        : m_keychain(keychain)
    {}

    Outcome<QJsonObject> completeInput(const DeclaredCall &call, QJsonObject input,
                                       const QJsonObject &spec, const Observation *latest,
                                       QStringList *secrets) override;
    void listed(Observation &o) override;
    std::optional<BackendError> observe(Observation &o, const QJsonObject &resource,
                                        const QJsonObject &desired, const Target &target,
                                        const QSet<QString> &sent) override;

private:
    /// The package code.file names (zipped when a folder), or an Invalid error that says why.
    static Outcome<LambdaCode::Package> packageOf(const QJsonObject &code);
    /// `code` (the spec's) as the members CreateFunction's Code and UpdateFunctionCode take.
    static Outcome<QJsonObject> codeMembers(const QJsonObject &code);
    std::optional<BackendError> observeCode(Observation &o, const QJsonObject &resource,
                                            const QJsonObject &desired, const Target &target,
                                            const QSet<QString> &sent);
    /// The CodeSha256 of the package code.file names, zipped again only when its stamp moved
    /// (LambdaCode::stamp): a look at a function does not zip its folder each time.
    Outcome<QString> shaOf(const QJsonObject &code);
    std::optional<BackendError> observeEnvironment(Observation &o,
                                                   const QJsonObject &desired) const;

    CredentialStore *m_keychain;
    QHash<QString, std::pair<QByteArray, QString>> m_shas; ///< path → (stamp, CodeSha256)
};

} // namespace converge
