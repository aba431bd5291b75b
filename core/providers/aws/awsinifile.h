// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace converge {

/// The INI dialect of the AWS shared files (`~/.aws/config`, `~/.aws/credentials`), read as the
/// AWS CLI reads them (Python's configparser): `[section]` headers kept verbatim apart from the
/// surrounding blanks (`profile my dev`, `sso-session corp/eu` are valid names), `key = value`
/// or `key: value` with the key lower-cased and both trimmed, whole-line comments starting with
/// '#' or ';' (a '#' inside a value is part of it, as credential_process commands need),
/// indented lines continuing the previous value (the nested `s3 =` blocks). A key given twice in
/// one section, a section given twice, or a key before any section is an error naming the line,
/// as the AWS CLI refuses such files too; sections of the same name in different files are
/// merged by the caller.
///
/// Why not QSettings: its IniFormat treats '/' and '\' in section names as group separators,
/// percent-decodes names, turns a value with commas into a list and strips ';' comments inside
/// values, so `[profile a/b]` or `credential_process = tool --roles a,b` would come back changed.
class AwsIniFile final
{
public:
    struct Section
    {
        QString name;
        QHash<QString, QString> values;
        int line = 0; ///< 1-based line of the header
    };

    /// Parses `content`; on error returns false with `*error` as "line N: what", never the
    /// line's text (it may hold a secret).
    bool parse(const QByteArray &content, QString *error = nullptr);

    const QList<Section> &sections() const { return m_sections; }
    /// The section called `name` exactly, or nullptr.
    const Section *section(const QString &name) const;

private:
    QList<Section> m_sections;
};

} // namespace converge
