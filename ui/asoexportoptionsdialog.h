// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "asoexporter.h"
#include "resource.h"

#include <QDialog>
#include <QHash>
#include <QList>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace converge {

/// File ▸ Export ▸ for Azure Service Operator…, before the file: asks for what ASO needs of each
/// storage account and Converge does not (location, SKU, account kind, resource group), for the
/// accounts whose spec leaves any of them out. Every field is prefilled from the account's spec
/// where set; OK stays off until each is given and follows the kind's rules (the same as
/// `apply` checks). The values go to the exporter as `converge export --for aso --location …`
/// gives them, for this export only: nothing is stored.
class AsoExportOptionsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AsoExportOptionsDialog)

public:
    /// `accounts`: the StorageAccounts to export that lack a field (see needingFields()).
    explicit AsoExportOptionsDialog(const QList<Resource> &accounts, QWidget *parent = nullptr);

    /// The StorageAccounts of `resources` whose spec leaves out a field ASO needs.
    static QList<Resource> needingFields(const QList<Resource> &resources);

    /// What was given, per account (metadata.name): the exporter's per-account overrides.
    QHash<QString, AsoExporter::AccountFields> fields() const;
    /// Whether every field of every account is given and valid (what enables OK).
    bool isComplete() const;

private:
    struct AccountEdits
    {
        QString account;
        QLineEdit *location = nullptr; // owned through Qt parents, as the rest
        QComboBox *sku = nullptr;
        QComboBox *accountKind = nullptr;
        QLineEdit *resourceGroup = nullptr;
    };
    QWidget *accountForm(const Resource &account);
    void update();

    QList<AccountEdits> m_accounts;
    QLabel *m_status = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace converge
