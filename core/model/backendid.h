// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

struct Resource;

/// A backend resource's ID as its cloud compares IDs, so that one backend resource has one
/// manager in a workspace whichever account reached it.
namespace BackendId {

/// `id` as its cloud compares it: an ARM ID (`/subscriptions/…`) case-insensitively, a URL's
/// scheme and host case-insensitively (a storage URL's path stays as it is), anything else (an
/// ARN, a Google resource name) exactly. Empty stays empty.
QString normalized(const QString &id);

/// The normalized ID `resource` manages: its recorded `converge.dev/resource-id` when it has an
/// owner. A resource without one is an account's connection (an AwsAccount, a StorageAccount
/// connected as it exists): it manages nothing in the backend, and two connections may reach
/// the same account. Empty when it manages nothing yet.
QString managedBy(const Resource &resource);

} // namespace BackendId

} // namespace converge
