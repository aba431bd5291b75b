// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "asoexportoptionsdialog.h"

#include "azurekinds.h"
#include "fieldschema.h"
#include "kind.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QVBoxLayout>

namespace converge {

namespace {

// The StorageAccount kind's own rule for a field: the dialog refuses what `apply` would.
FieldSchema asoOptionsField(const Kind &account, const QString &name)
{
    const FieldSchema *field = account.spec.field(name);
    Q_ASSERT(field);
    return field ? *field : FieldSchema::string(name);
}

QLineEdit *asoOptionsLineEdit(const FieldSchema &field, const QString &value,
                              const QString &example, QWidget *parent)
{
    auto *edit = new QLineEdit(value, parent);
    edit->setPlaceholderText(example);
    edit->setClearButtonEnabled(true);
    if (field.maxLength > 0)
        edit->setMaxLength(field.maxLength);
    if (!field.pattern.isEmpty()) {
        edit->setValidator(new QRegularExpressionValidator(
            QRegularExpression(QRegularExpression::anchoredPattern(field.pattern)), edit));
    }
    if (!field.patternHint.isEmpty())
        edit->setToolTip(AsoExportOptionsDialog::tr("%1, at most %2 characters")
                             .arg(field.patternHint)
                             .arg(field.maxLength));
    return edit;
}

QComboBox *asoOptionsChoice(const FieldSchema &field, const QString &value,
                            const QString &placeholder, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->addItems(field.enumValues);
    box->setPlaceholderText(placeholder);
    box->setCurrentIndex(int(field.enumValues.indexOf(value))); // -1: the placeholder
    return box;
}

} // namespace

AsoExportOptionsDialog::AsoExportOptionsDialog(const QList<Resource> &accounts, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("asoExportOptionsDialog"));
    setWindowTitle(tr("Export for Azure Service Operator"));
    auto *layout = new QVBoxLayout(this);

    auto *intro = new QLabel(
        tr("Azure Service Operator needs each storage account's location, SKU, kind and resource "
           "group. Converge does not use them, and the spec of the accounts below leaves some "
           "out. What you give here is written to this export only; to not be asked again, add "
           "location, sku, accountKind and resourceGroup to the account's spec."),
        this);
    // Wrapped at the dialog's width, not at a narrow guess that leaves a gap below the forms.
    intro->setMinimumWidth(500);
    intro->setObjectName(QStringLiteral("asoOptionsIntro"));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *forms = new QWidget(this);
    auto *formsLayout = new QVBoxLayout(forms);
    formsLayout->setContentsMargins(0, 0, 0, 0);
    for (const Resource &account : accounts)
        formsLayout->addWidget(accountForm(account));
    if (accounts.size() > 3) {
        // Many accounts: the forms scroll, the explanation and the buttons stay in sight.
        auto *scroll = new QScrollArea(this);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(forms);
        scroll->setMinimumHeight(3 * forms->sizeHint().height() / int(accounts.size()));
        layout->addWidget(scroll, 1);
    } else {
        layout->addWidget(forms);
    }

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("asoOptionsStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Choose File…"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("asoOptionsOk"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
    setMinimumWidth(520);
}

QWidget *AsoExportOptionsDialog::accountForm(const Resource &account)
{
    const QString name = account.metadata.name;
    const auto spec = [&account](const char *field) {
        return account.spec.value(QLatin1String(field)).toString();
    };
    auto *box = new QGroupBox(tr("Storage account %1").arg(name), this);
    box->setObjectName(QString(QStringLiteral("asoOptions_") + name));
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    const Kind kind = AzureKinds::storageAccountKind();
    AccountEdits edits;
    edits.account = name;
    edits.location = asoOptionsLineEdit(asoOptionsField(kind, QStringLiteral("location")),
                                        spec("location"), tr("e.g. westeurope"), box);
    edits.sku = asoOptionsChoice(asoOptionsField(kind, QStringLiteral("sku")), spec("sku"),
                                 tr("Choose a SKU"), box);
    edits.accountKind = asoOptionsChoice(asoOptionsField(kind, QStringLiteral("accountKind")),
                                         spec("accountKind"), tr("Choose a kind"), box);
    edits.resourceGroup = asoOptionsLineEdit(asoOptionsField(kind, QStringLiteral("resourceGroup")),
                                             spec("resourceGroup"), tr("e.g. rg-storage"), box);
    edits.location->setObjectName(QString(QStringLiteral("asoLocation_") + name));
    edits.sku->setObjectName(QString(QStringLiteral("asoSku_") + name));
    edits.accountKind->setObjectName(QString(QStringLiteral("asoAccountKind_") + name));
    edits.resourceGroup->setObjectName(QString(QStringLiteral("asoResourceGroup_") + name));
    form->addRow(tr("&Location (Azure region):"), edits.location);
    form->addRow(tr("&SKU (redundancy and tier):"), edits.sku);
    form->addRow(tr("Account &kind:"), edits.accountKind);
    form->addRow(tr("&Resource group:"), edits.resourceGroup);

    connect(edits.location, &QLineEdit::textChanged, this, &AsoExportOptionsDialog::update);
    connect(edits.sku, &QComboBox::currentIndexChanged, this, &AsoExportOptionsDialog::update);
    connect(edits.accountKind, &QComboBox::currentIndexChanged, this,
            &AsoExportOptionsDialog::update);
    connect(edits.resourceGroup, &QLineEdit::textChanged, this, &AsoExportOptionsDialog::update);
    m_accounts.append(edits);
    return box;
}

QList<Resource> AsoExportOptionsDialog::needingFields(const QList<Resource> &resources)
{
    QList<Resource> needing;
    for (const Resource &r : resources) {
        if (r.apiVersion == AzureKinds::apiVersion() && r.kind == AzureKinds::storageAccount() &&
            !AsoExporter::missingFields(r).isEmpty())
            needing.append(r);
    }
    return needing;
}

QHash<QString, AsoExporter::AccountFields> AsoExportOptionsDialog::fields() const
{
    QHash<QString, AsoExporter::AccountFields> given;
    for (const AccountEdits &e : m_accounts) {
        given.insert(e.account, {e.location->text().trimmed(), e.sku->currentText(),
                                 e.accountKind->currentText(), e.resourceGroup->text().trimmed()});
    }
    return given;
}

bool AsoExportOptionsDialog::isComplete() const
{
    return m_status->text().isEmpty();
}

void AsoExportOptionsDialog::update()
{
    QStringList needed;
    for (const AccountEdits &e : std::as_const(m_accounts)) {
        QStringList fields;
        if (e.location->text().isEmpty() || !e.location->hasAcceptableInput())
            fields.append(tr("location"));
        if (e.sku->currentIndex() < 0)
            fields.append(tr("SKU"));
        if (e.accountKind->currentIndex() < 0)
            fields.append(tr("kind"));
        if (e.resourceGroup->text().isEmpty() || !e.resourceGroup->hasAcceptableInput())
            fields.append(tr("resource group"));
        if (!fields.isEmpty())
            needed.append(e.account + QStringLiteral(": ") + fields.join(QStringLiteral(", ")));
    }
    m_status->setText(needed.isEmpty()
                          ? QString()
                          : tr("Still needed: %1.").arg(needed.join(QStringLiteral("; "))));
    m_status->setVisible(!needed.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(needed.isEmpty());
}

} // namespace converge
