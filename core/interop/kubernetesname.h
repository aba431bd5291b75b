// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

/// Kubernetes object names (DNS-1123 subdomains), which ASO and ACK resources must have.
class KubernetesName final
{
public:
    /// Whether `name` is a DNS-1123 subdomain: 1–253 lower-case letters, digits, '-' and '.',
    /// starting and ending with a letter or digit.
    static bool isValid(const QString &name);
    /// A valid name for `name`: lower case, other characters as '-', trimmed to the rules.
    static QString from(const QString &name);
};

} // namespace converge
