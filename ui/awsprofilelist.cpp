// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "awsprofilelist.h"

#include "awsinifile.h"

#include <QFile>

namespace converge {

namespace {

// The sections of one file; a missing file has none.
QString readSections(const QString &path, AwsIniFile *ini)
{
    QFile file(path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    QString error;
    if (!ini->parse(file.readAll(), &error))
        return QStringLiteral("%1 is not a valid AWS configuration file: %2").arg(path, error);
    return {};
}

} // namespace

AwsProfileList AwsProfileList::read(const AwsProfile::Files &files)
{
    AwsProfileList list;
    list.files = files;
    AwsIniFile config;
    AwsIniFile credentials;
    list.error = readSections(files.config, &config);
    if (list.error.isEmpty())
        list.error = readSections(files.credentials, &credentials);
    if (!list.error.isEmpty())
        return list;

    QStringList names;
    for (const AwsIniFile::Section &s : config.sections()) {
        const QString prefix = QStringLiteral("profile ");
        if (s.name.startsWith(prefix))
            names << s.name.mid(prefix.size()).trimmed();
        else if (s.name == QLatin1String("default"))
            names << s.name;
        // Other sections (sso-session, services) are not profiles.
    }
    for (const AwsIniFile::Section &s : credentials.sections())
        names << s.name;
    names.removeDuplicates();

    for (const QString &name : std::as_const(names)) {
        Entry entry;
        entry.name = name;
        const Outcome<AwsProfile> profile = AwsProfile::load(name, files);
        if (profile)
            entry.region = profile.value().region();
        else
            entry.error = profile.error().message;
        list.entries.append(entry);
    }
    return list;
}

const AwsProfileList::Entry *AwsProfileList::find(const QString &name) const
{
    for (const Entry &e : entries) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

} // namespace converge
