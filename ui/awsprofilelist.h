// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "awsprofile.h"

#include <QList>
#include <QString>

namespace converge {

/// The profiles of the AWS shared files, for the connect dialog's picker: every `[profile NAME]`
/// and `[default]` of the config file and every `[NAME]` of the credentials file, in the order
/// they appear, each loaded as the engine would load it (AwsProfile::load), so that a profile
/// Converge cannot use carries the engine's own reason. Reads two small local files.
struct AwsProfileList
{
    struct Entry
    {
        QString name;
        QString region; ///< the profile's region, or empty
        QString error;  ///< why Converge cannot use it, or empty
        bool usable() const { return error.isEmpty(); }
    };

    AwsProfile::Files files;
    QList<Entry> entries;
    QString error; ///< a file that cannot be read or parsed, or empty

    static AwsProfileList read(const AwsProfile::Files &files);
    /// The entry called `name`, or nullptr.
    const Entry *find(const QString &name) const;
};

} // namespace converge
