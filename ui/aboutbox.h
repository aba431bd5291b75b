// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QMessageBox>
#include <QUrl>

namespace converge {

/// Help ▸ About Converge: the version and the commit it was built from, the Qt it runs on, the
/// licence, and where the documentation is.
class AboutBox final : public QMessageBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AboutBox)

public:
    explicit AboutBox(QWidget *parent = nullptr);

    /// The documentation: the README beside the installed program (share/doc/converge) or in
    /// the source tree it was built from, else the project's site.
    static QUrl documentationUrl();
};

} // namespace converge
