// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "credentialstore.h"

namespace converge {

bool CredentialStore::fail(BackendError *error, BackendError::Category category,
                           const QString &code, const QString &message)
{
    if (error) {
        *error = BackendError{};
        error->category = category;
        error->code = code;
        error->message = message;
    }
    return false;
}

} // namespace converge
