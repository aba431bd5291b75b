// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// converge_secretscan [--allow FILE] PATH…: the scan run after the whole suite (CTest test
// secrets.scan). Exit 0 when no secret is found, 1 when one is (each finding on a line, without its
// value).

#include "secretscanner.h"

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStringList paths = app.arguments().mid(1);
    QString allowFile;
    if (paths.size() >= 2 && paths.first() == QLatin1String("--allow")) {
        allowFile = paths.at(1);
        paths = paths.mid(2);
    }
    QTextStream out(stdout);
    if (paths.isEmpty()) {
        out << "usage: converge_secretscan [--allow FILE] PATH…\n";
        return 2;
    }
    converge::test::SecretScanner scanner;
    scanner.addTestSecrets();
    if (!allowFile.isEmpty() && !scanner.addAllowedFrom(allowFile)) {
        out << "cannot read " << allowFile << '\n';
        return 2;
    }
    QList<converge::test::SecretScanner::Finding> findings;
    for (const QString &path : paths)
        findings += scanner.scanPath(path);
    for (const auto &finding : std::as_const(findings))
        out << "secret found: " << finding.toString() << '\n';
    out << scanner.filesScanned() << " files scanned, " << findings.size() << " secrets found\n";
    return findings.isEmpty() ? 0 : 1;
}
