// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The Azure connection-string parser and the SAS token parser it uses.

#include "connectionstring.h"
#include "sastoken.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    if (const std::optional<ConnectionString> parsed = ConnectionString::parse(text, &error)) {
        (void)parsed->redacted();
        (void)parsed->credentials();
        (void)parsed->accountNameFromEndpoints();
    }
    (void)SasToken::parse(text, &error);
    return 0;
}
