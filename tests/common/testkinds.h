// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QString>

namespace converge {
class KindRegistry;
}

namespace converge::test {

/// test.converge.dev/v1: the group and version of the test kinds.
QString testApiVersion();

/// Widget, owned by a Gadget: a field of every type and every rule a schema can state.
///
/// spec: owner {name} (required, immutable); azureName (immutable, pattern, 3-24 characters);
/// publicAccess (enum None|Blob|Container, default None); replicas (int 1-10, default 1);
/// enabled (bool); metadata (map of strings up to 256 characters, keys of letters, digits, '.',
/// '_' and '-'); tags (list of at most 3 {key (required), value, propagate (default true)});
/// etag (not compared); accountKey (secret); source {a, b, mode (default "copy")} with exactly
/// one of a and b. metadata.name: the default rules, at most 63 characters.
Kind widgetKind();

/// Gadget, a root kind: spec {location (required, pattern `[a-z]+` without a hint)}.
Kind gadgetKind();

/// Adds Widget and Gadget.
void registerTestKinds(KindRegistry &registry);

} // namespace converge::test
