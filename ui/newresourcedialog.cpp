// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "newresourcedialog.h"

#include "kindregistry.h"
#include "kindtemplate.h"
#include "manifestreader.h"
#include "specedit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace converge {

namespace {

constexpr int validateDelayMs = 250;

QString sourceName()
{
    return QStringLiteral("new-resource.yaml");
}

} // namespace

NewResourceDialog::NewResourceDialog(const KindRegistry &kinds,
                                     const QHash<QString, QStringList> &namesByKind,
                                     QWidget *parent)
    : QDialog(parent)
    , m_kinds(kinds)
    , m_namesByKind(namesByKind)
{
    setObjectName(QStringLiteral("newResourceDialog"));
    setWindowTitle(tr("New resource"));
    resize(760, 640);
    auto *layout = new QVBoxLayout(this);

    auto *form = new QFormLayout;
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kindCombo"));
    for (const QString &name : kinds.names()) {
        const Kind *k = kinds.find(name);
        m_kind->addItem(name, name);
        m_kind->setItemData(m_kind->count() - 1, k->description, Qt::ToolTipRole);
    }
    form->addRow(tr("&Kind:"), m_kind);
    m_owner = new QComboBox(this);
    m_owner->setObjectName(QStringLiteral("ownerCombo"));
    m_owner->setEditable(true); // an owner may be applied later, e.g. from another manifest
    form->addRow(tr("&Owner:"), m_owner);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    form->addRow(tr("&Name:"), m_name);
    layout->addLayout(form);

    m_editor = new SpecEdit(this);
    m_editor->setObjectName(QStringLiteral("manifestEdit"));
    layout->addWidget(m_editor, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("validationLabel"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    layout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(this);
    m_apply = buttons->addButton(tr("&Apply…"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(QStringLiteral("applyButton"));
    m_apply->setToolTip(tr("Show what applying would do, then apply"));
    m_reset = buttons->addButton(tr("&Reset to template"), QDialogButtonBox::ResetRole);
    m_reset->setObjectName(QStringLiteral("resetButton"));
    buttons->addButton(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        validateNow();
        if (m_valid)
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reset, &QPushButton::clicked, this, [this] { regenerate(true); });
    layout->addWidget(buttons);

    m_timer.setSingleShot(true);
    m_timer.setInterval(validateDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &NewResourceDialog::validate);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        m_valid = false;
        m_apply->setEnabled(false);
        m_reset->setEnabled(m_editor->toPlainText() != m_generated);
        m_timer.start();
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &NewResourceDialog::kindChanged);
    connect(m_owner, &QComboBox::currentTextChanged, this, [this] { regenerate(false); });
    connect(m_name, &QLineEdit::textChanged, this, [this] { regenerate(false); });
    kindChanged();
}

QString NewResourceDialog::kind() const
{
    return m_kind->currentData().toString();
}

void NewResourceDialog::setKind(const QString &kind)
{
    m_kind->setCurrentIndex(m_kind->findData(kind));
}

QString NewResourceDialog::owner() const
{
    return m_owner->isEnabled() ? m_owner->currentText().trimmed() : QString();
}

void NewResourceDialog::setOwner(const QString &owner)
{
    if (m_owner->isEnabled())
        m_owner->setCurrentText(owner);
}

QString NewResourceDialog::manifest() const
{
    return m_editor->toPlainText();
}

QString NewResourceDialog::errorText() const
{
    return m_valid ? QString() : m_status->text();
}

void NewResourceDialog::kindChanged()
{
    const Kind *k = m_kinds.find(kind());
    if (!k)
        return;
    const QSignalBlocker blockOwner(m_owner);
    const QSignalBlocker blockName(m_name);
    m_owner->clear();
    if (k->ownerKind.isEmpty()) {
        m_owner->setEnabled(false);
        m_owner->setToolTip(tr("A %1 has no owner").arg(k->name));
    } else {
        QStringList owners = m_namesByKind.value(k->ownerKind);
        owners.sort();
        m_owner->addItems(owners);
        m_owner->setEnabled(true);
        m_owner->setToolTip(owners.isEmpty()
                                ? tr("The workspace has no %1 yet: type the name of one you "
                                     "will apply")
                                      .arg(k->ownerKind)
                                : tr("The %1 this resource belongs to").arg(k->ownerKind));
    }
    const QStringList taken = m_namesByKind.value(k->name);
    int n = 1;
    while (taken.contains(KindTemplate::suggestedName(*k, n)))
        ++n;
    m_name->setText(KindTemplate::suggestedName(*k, n));
    regenerate(m_editor->toPlainText() == m_generated);
}

void NewResourceDialog::regenerate(bool force)
{
    const Kind *k = m_kinds.find(kind());
    if (!k || (!force && m_editor->toPlainText() != m_generated))
        return;
    m_generated = KindTemplate::yaml(*k, m_name->text().trimmed(), owner());
    m_editor->setPlainText(m_generated);
}

void NewResourceDialog::validateNow()
{
    m_timer.stop();
    validate();
}

void NewResourceDialog::validate()
{
    // A template-sized text: parsing it takes well under a millisecond.
    const ManifestReader::Result read =
        ManifestReader(m_kinds).read(m_editor->toPlainText().toUtf8(), sourceName());
    m_valid = read.ok() && !read.objects.isEmpty();
    m_apply->setEnabled(m_valid);
    if (read.ok()) {
        m_editor->clearDiagnostic();
        m_status->setText(read.objects.isEmpty()
                              ? tr("The manifest declares nothing.")
                              : tr("Valid: %n object(s).", nullptr, int(read.objects.size())));
        return;
    }
    const ManifestError &first = read.errors.constFirst();
    m_editor->setDiagnostic(first.location.line, first.location.column, first.toString());
    m_status->setText(first.toString());
}

} // namespace converge
