// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "aboutbox.h"

#include "buildinfo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace converge {

AboutBox::AboutBox(QWidget *parent)
    : QMessageBox(parent)
{
    setObjectName(QStringLiteral("aboutBox"));
    setWindowTitle(tr("About Converge"));
    setIconPixmap(QIcon(QStringLiteral(":/icons/converge.svg")).pixmap(64, 64));
    setTextFormat(Qt::RichText);
    setText(tr("<h3>Converge %1</h3>"
               "<p>Declarative cloud resources, reconciled on your desktop.</p>")
                .arg(BuildInfo::version().toHtmlEscaped()));
    const QUrl docs = documentationUrl();
    setInformativeText(tr("<p>Built from commit <tt>%1</tt>, running on Qt %2.</p>"
                          "<p>Free software under the MIT licence.</p>"
                          "<p><a href=\"%3\">Documentation</a> · <a href=\"%4\">%4</a></p>")
                           .arg(BuildInfo::commit().toHtmlEscaped(),
                                QString::fromLatin1(qVersion()),
                                docs.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                                QStringLiteral("https://converge.dev")));
    setStandardButtons(QMessageBox::Close);
}

QUrl AboutBox::documentationUrl()
{
    // Installed: PREFIX/bin/converge and PREFIX/share/doc/converge/README.md. Built as the
    // README says: SOURCE/build/bin/converge beside SOURCE/README.md.
    const QDir bin(QCoreApplication::applicationDirPath());
    const QStringList candidates{
        bin.filePath(QStringLiteral("../share/doc/converge/README.md")),
        bin.filePath(QStringLiteral("../../README.md")),
    };
    for (const QString &path : candidates) {
        if (QFileInfo::exists(path))
            return QUrl::fromLocalFile(QFileInfo(path).canonicalFilePath());
    }
    return QUrl(QStringLiteral("https://converge.dev"));
}

} // namespace converge
