// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "workspacetypes.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace converge {

class KindRegistry;
class YamlHighlighter;

/// What the backend says of a resource that nothing manages, so that a person can look before
/// claiming: where it is, when it was seen, every property the listing returned (Observed), and
/// a read-only preview of exactly the manifest Claim would store. Claim is offered here and
/// acts on the tree's selection (which may hold several).
class UnmanagedDetails final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UnmanagedDetails)

public:
    /// `kinds` is not owned and must outlive the pane.
    explicit UnmanagedDetails(const KindRegistry &kinds, QWidget *parent = nullptr);

    /// Shows `item`; nullopt clears the pane.
    void showItem(const std::optional<DiscoveredResource> &item);
    std::optional<DiscoveredResource> shown() const { return m_item; }
    /// Whether Claim is offered (a controller runs in this window).
    void setClaimEnabled(bool enabled);
    /// The manifest Claim would store for `item`, or why it would be refused.
    static QString claimPreview(const DiscoveredResource &item, const KindRegistry &kinds);

Q_SIGNALS:
    /// The Claim button was pressed.
    void claimRequested();

private:
    const KindRegistry &m_kinds;
    std::optional<DiscoveredResource> m_item;
    QLabel *m_title = nullptr;
    QLabel *m_facts = nullptr;
    QTreeWidget *m_observed = nullptr;
    QPlainTextEdit *m_preview = nullptr;
    QLabel *m_previewNote = nullptr;
    QPushButton *m_claim = nullptr;
    QString m_claimTip;          // what Claim's tip says when it can act
    bool m_claimAllowed = false; // setClaimEnabled(): a controller runs in this window
};

} // namespace converge
