// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "deletedialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace converge {

namespace {
constexpr int listedAtMost = 10;
}

DeleteDialog::DeleteDialog(const QList<ResourceKey> &keys, QWidget *parent)
    : QDialog(parent)
    , m_keys(keys)
{
    setObjectName(QStringLiteral("deleteDialog"));
    const int n = int(keys.size());
    setWindowTitle(n == 1 ? tr("Delete %1").arg(keys.constFirst().toString())
                          : tr("Delete %n resources", nullptr, n));

    auto *layout = new QVBoxLayout(this);
    auto *question = new QLabel(this);
    question->setObjectName(QStringLiteral("deleteQuestion"));
    question->setWordWrap(true);
    QString listed;
    for (int i = 0; i < std::min(n, listedAtMost); ++i)
        listed += QStringLiteral("<li>%1</li>").arg(keys.at(i).toString().toHtmlEscaped());
    if (n > listedAtMost)
        listed += QStringLiteral("<li>") + tr("… and %n more", nullptr, n - listedAtMost) +
                  QStringLiteral("</li>");
    question->setText(
        (n == 1 ? tr("<p>Delete <b>%1</b>?</p>").arg(keys.constFirst().toString().toHtmlEscaped())
                : tr("<p>Delete these <b>%n resources</b>?</p>", nullptr, n) +
                      QStringLiteral("<ul>%1</ul>").arg(listed)) +
        tr("<p><b>Delete</b> deletes %1 in the cloud, waits until %2 gone, then removes %3 from "
           "the workspace.</p>"
           "<p><b>Detach</b> removes %3 from the workspace only; the cloud resources are left as "
           "they are.</p>"
           "<p>Resources whose policy is <i>skip</i> or <i>detach-on-delete</i> are always "
           "detached.</p>")
            .arg(n == 1 ? tr("it") : tr("each of them"), n == 1 ? tr("it is") : tr("they are"),
                 n == 1 ? tr("it") : tr("them")));
    layout->addWidget(question);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *remove = buttons->addButton(tr("Delete"), QDialogButtonBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("deleteButton"));
    QPushButton *detach = buttons->addButton(tr("Detach"), QDialogButtonBox::ActionRole);
    detach->setObjectName(QStringLiteral("detachButton"));
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    cancel->setDefault(true);
    cancel->setFocus();
    connect(remove, &QPushButton::clicked, this, [this] {
        m_choice = Choice::Delete;
        accept();
    });
    connect(detach, &QPushButton::clicked, this, [this] {
        m_choice = Choice::Detach;
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

} // namespace converge
