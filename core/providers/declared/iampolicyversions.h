// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"

#include <optional>

namespace converge {

/// The hook of IAM's managed policies (declaration hook `iamPolicyVersions`): a policy's
/// document changes by a new version made default, a policy holds at most five versions, and it
/// cannot be deleted while it has versions besides the default one.
class IamPolicyVersions final : public DeclaredHook
{
public:
    static constexpr int maxVersions = 5;

    /// `caller` must outlive the hook.
    explicit IamPolicyVersions(ApiCaller &caller)
        : m_caller(caller)
    {}

    std::optional<BackendError> beforeUpdate(const DeclaredCall &call, const QString &id) override
    {
        Q_UNUSED(call)
        return makeRoom(m_caller, id);
    }
    std::optional<BackendError> beforeDelete(const QString &id) override
    {
        return dropOthers(m_caller, id);
    }

    /// Before a new version: deletes the oldest version that is not the default when the policy
    /// `arn` holds maxVersions.
    static std::optional<BackendError> makeRoom(ApiCaller &caller, const QString &arn);
    /// Before the policy is deleted: deletes every version but the default.
    static std::optional<BackendError> dropOthers(ApiCaller &caller, const QString &arn);

private:
    ApiCaller &m_caller;
};

} // namespace converge
