// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QHash>
#include <QStringList>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace converge {

class KindRegistry;
class SpecEdit;

/// Resource → New…: pick a kind and an owner (an existing resource of the kind's owner kind),
/// get a manifest generated from the kind's schema (KindTemplate), edit it with validation as
/// you type, then Apply — which hands the text to the window's Apply-manifest path (a plan first).
///
/// Changing the kind, owner or name regenerates the manifest while it is untouched; once edited,
/// "Reset to template" does.
class NewResourceDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NewResourceDialog)

public:
    /// `kinds` must outlive the dialog. `namesByKind`: the names in the workspace, per kind
    /// (owners are offered from it, and suggested names avoid it).
    NewResourceDialog(const KindRegistry &kinds, const QHash<QString, QStringList> &namesByKind,
                      QWidget *parent = nullptr);

    QString kind() const;
    void setKind(const QString &kind);
    QString owner() const;
    /// Picks (or types) the owner; ignored for a kind without one.
    void setOwner(const QString &owner);
    QString manifest() const;
    /// Whether the newest text was checked and is valid.
    bool isValid() const { return m_valid && !m_timer.isActive(); }
    /// The newest check's message (file:line:column: path: message), or empty.
    QString errorText() const;
    /// Checks the text now rather than after the typing pause.
    void validateNow();

private:
    void kindChanged();
    void regenerate(bool force);
    void validate();

    const KindRegistry &m_kinds;
    QHash<QString, QStringList> m_namesByKind;
    QString m_generated; // the last generated text: unedited while the editor still shows it
    QTimer m_timer;
    bool m_valid = false;

    // Owned through Qt parents.
    QComboBox *m_kind = nullptr;
    QComboBox *m_owner = nullptr;
    QLineEdit *m_name = nullptr;
    SpecEdit *m_editor = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_reset = nullptr;
};

} // namespace converge
