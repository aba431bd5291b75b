// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "unmanageddetails.h"

#include "discoveredclaim.h"
#include "localtime.h"
#include "manifestwriter.h"
#include "yamlhighlighter.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace converge {

namespace {

QString propertyText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

// One row per property, objects as folded subtrees ("metadata" → its keys).
void addProperties(QTreeWidgetItem *parent, QTreeWidget *tree, const QJsonObject &object,
                   const QString &group)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        auto *row = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
        row->setText(0, it.key());
        row->setText(2, group);
        if (it->isObject() && !it->toObject().isEmpty()) {
            addProperties(row, tree, it->toObject(), group);
            row->setExpanded(true);
        } else {
            row->setText(1, propertyText(*it));
            row->setToolTip(1, propertyText(*it));
        }
    }
}

} // namespace

UnmanagedDetails::UnmanagedDetails(const KindRegistry &kinds, QWidget *parent)
    : QWidget(parent)
    , m_kinds(kinds)
{
    setObjectName(QStringLiteral("unmanagedDetails"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *header = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("unmanagedTitle"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    header->addWidget(m_title, 1);
    m_claim = new QPushButton(tr("Claim"), this);
    m_claim->setObjectName(QStringLiteral("claimButton"));
    m_claimTip = tr("Manage the selected resources as they are: the workspace stores the "
                    "manifest below and nothing is written to the backend");
    m_claim->setToolTip(m_claimTip);
    header->addWidget(m_claim, 0, Qt::AlignTop);
    layout->addLayout(header);

    m_facts = new QLabel(this);
    m_facts->setObjectName(QStringLiteral("unmanagedFacts"));
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_facts);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("unmanagedTabs"));
    m_observed = new QTreeWidget(tabs);
    m_observed->setObjectName(QStringLiteral("unmanagedObserved"));
    m_observed->setHeaderLabels({tr("Property"), tr("Value"), tr("From")});
    m_observed->setUniformRowHeights(true);
    m_observed->setAlternatingRowColors(true);
    m_observed->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_observed->header()->setStretchLastSection(false);
    m_observed->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    tabs->addTab(m_observed, tr("Observed"));

    auto *previewPage = new QWidget(tabs);
    auto *previewLayout = new QVBoxLayout(previewPage);
    m_previewNote = new QLabel(previewPage);
    m_previewNote->setWordWrap(true);
    previewLayout->addWidget(m_previewNote);
    m_preview = new QPlainTextEdit(previewPage);
    m_preview->setObjectName(QStringLiteral("claimPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new YamlHighlighter(m_preview->document(), m_preview);
    previewLayout->addWidget(m_preview, 1);
    tabs->addTab(previewPage, tr("Spec preview"));
    layout->addWidget(tabs, 1);

    connect(m_claim, &QPushButton::clicked, this, &UnmanagedDetails::claimRequested);
    showItem(std::nullopt);
}

void UnmanagedDetails::setClaimEnabled(bool enabled)
{
    m_claimAllowed = enabled;
    showItem(m_item);
}

QString UnmanagedDetails::claimPreview(const DiscoveredResource &item, const KindRegistry &kinds)
{
    if (const QString why = DiscoveredClaim::refusal(item, kinds); !why.isEmpty())
        return tr("# Claim is not offered: %1").arg(why);
    QString error;
    const std::optional<Resource> resource =
        DiscoveredClaim::build(item, item.spec, kinds, {}, &error);
    if (!resource)
        return tr("# Claim would be refused: %1").arg(error);
    return QString::fromUtf8(ManifestWriter(kinds).toYaml({*resource}));
}

void UnmanagedDetails::showItem(const std::optional<DiscoveredResource> &item)
{
    m_item = item;
    m_observed->clear();
    const QString refusal = item ? DiscoveredClaim::refusal(*item, m_kinds) : QString();
    m_claim->setEnabled(m_claimAllowed && refusal.isEmpty());
    m_claim->setToolTip(refusal.isEmpty() ? m_claimTip : tr("Cannot claim: %1").arg(refusal));
    if (!item) {
        m_title->clear();
        m_facts->clear();
        m_preview->clear();
        m_previewNote->clear();
        return;
    }
    m_title->setText(tr("<b>%1</b> %2 — <i>not managed</i>")
                         .arg(item->kind.toHtmlEscaped(), item->name.toHtmlEscaped()));
    QStringList facts{tr("In the backend under %1; no resource of this workspace manages it.")
                          .arg(item->owner.toString())};
    if (!item->resourceId.isEmpty())
        facts.append(tr("Backend ID: %1").arg(item->resourceId));
    if (item->firstSeenAt.isValid() && item->firstSeenAt != item->seenAt)
        facts.append(tr("First seen: %1").arg(localTimeText(item->firstSeenAt)));
    if (item->seenAt.isValid())
        facts.append(tr("Last seen: %1").arg(localTimeText(item->seenAt)));
    m_facts->setText(facts.join(QLatin1Char('\n')));

    QJsonObject spec = item->spec;
    spec.remove(QStringLiteral("owner"));
    addProperties(nullptr, m_observed, spec, tr("spec"));
    addProperties(nullptr, m_observed, item->details, tr("backend"));

    m_preview->setPlainText(claimPreview(*item, m_kinds));
    m_previewNote->setText(tr("What Claim stores in the workspace, with no write to the "
                              "backend. Where a listing does not show everything (a table's "
                              "keys and indexes), Claim reads the rest with a get first; "
                              "the name gets a suffix when it is taken."));
}

} // namespace converge
