// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "logpanel.h"

#include "foldermemory.h"

#include "eventlogfilterproxy.h"
#include "eventlogmodel.h"
#include "eventlogview.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFontMetrics>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace converge {

void LogPanel::showNotice(const QString &text)
{
    const QString shown = m_noticeText->text();
    m_noticeText->setText(
        shown.isEmpty() || m_notice->isHidden() ? text : shown + QLatin1Char('\n') + text);
    m_notice->show();
}

LogPanel::LogPanel(EventLogModel &model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
{
    setObjectName(QStringLiteral("logPanel"));
    m_proxy = new EventLogFilterProxy(this);
    m_proxy->setObjectName(QStringLiteral("eventLogFilterProxy"));
    m_proxy->setSourceModel(&m_model);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);

    // A banner for what the log itself cannot hold (the last run's crash), closed by a person.
    m_notice = new QFrame(this);
    m_notice->setObjectName(QStringLiteral("logNotice"));
    static_cast<QFrame *>(m_notice)->setFrameShape(QFrame::StyledPanel);
    m_notice->setAutoFillBackground(true);
    QPalette noticePalette = m_notice->palette();
    noticePalette.setColor(QPalette::Window, noticePalette.color(QPalette::ToolTipBase));
    noticePalette.setColor(QPalette::WindowText, noticePalette.color(QPalette::ToolTipText));
    m_notice->setPalette(noticePalette);
    auto *noticeLayout = new QHBoxLayout(m_notice);
    noticeLayout->setContentsMargins(6, 4, 4, 4);
    m_noticeText = new QLabel(m_notice);
    m_noticeText->setObjectName(QStringLiteral("logNoticeText"));
    m_noticeText->setWordWrap(true);
    m_noticeText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    noticeLayout->addWidget(m_noticeText, 1);
    auto *closeNotice = new QToolButton(m_notice);
    closeNotice->setObjectName(QStringLiteral("logNoticeClose"));
    closeNotice->setText(QStringLiteral("×"));
    closeNotice->setToolTip(tr("Close this notice"));
    closeNotice->setAutoRaise(true);
    noticeLayout->addWidget(closeNotice, 0, Qt::AlignTop);
    connect(closeNotice, &QToolButton::clicked, m_notice, &QWidget::hide);
    m_notice->hide();
    layout->addWidget(m_notice);

    auto *bar = new QHBoxLayout;
    auto *type = new QComboBox(this);
    type->setObjectName(QStringLiteral("logTypeFilter"));
    type->addItem(tr("All events"), -1);
    type->addItem(tr("Normal"), int(Event::Type::Normal));
    type->addItem(tr("Warning"), int(Event::Type::Warning));
    auto *text = new QLineEdit(this);
    text->setObjectName(QStringLiteral("logFilterEdit"));
    text->setPlaceholderText(tr("Filter by resource, phase, reason or message"));
    text->setClearButtonEnabled(true);
    m_olderButton = new QToolButton(this);
    m_olderButton->setObjectName(QStringLiteral("olderEventsButton"));
    m_olderButton->setText(tr("Older events"));
    m_olderButton->setToolTip(tr("Load the previous page of history (or scroll to the top)"));
    bar->addWidget(type);
    bar->addWidget(text, 1);
    bar->addWidget(m_olderButton);
    auto *exportLogButton = new QToolButton(this);
    exportLogButton->setObjectName(QStringLiteral("exportLogButton"));
    exportLogButton->setText(tr("Export…"));
    exportLogButton->setToolTip(tr("Write the events the filters show, the whole history, as CSV "
                                   "or JSON"));
    bar->addWidget(exportLogButton);
    m_followButton = new QToolButton(this);
    m_followButton->setObjectName(QStringLiteral("followLogButton"));
    m_followButton->setText(tr("Follow"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    m_followButton->setToolTip(tr("Keep the newest event in sight. Scrolling up stops following; "
                                  "scrolling to the bottom follows again."));
    bar->addWidget(m_followButton);
    connect(exportLogButton, &QToolButton::clicked, this, [this] {
        const QString start = QDir(m_folders ? m_folders->folder() : QString())
                                  .filePath(QStringLiteral("events.csv"));
        const QString path = QFileDialog::getSaveFileName(window(), tr("Export the log"), start,
                                                          tr("CSV (*.csv);;JSON (*.json)"));
        if (!path.isEmpty() && m_folders)
            m_folders->remember(path);
        if (!path.isEmpty())
            Q_EMIT exportRequested(path);
    });
    layout->addLayout(bar);

    m_view = new EventLogView(this);
    m_view->setObjectName(QStringLiteral("eventLog"));
    m_view->setModel(m_proxy);
    m_view->setHistoryModel(&m_model);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    // Widths from this font (the log may hold millions of rows: never sized to its contents);
    // the message takes the rest.
    const QFontMetrics metrics = m_view->fontMetrics();
    const auto widthOf = [&metrics](const QString &text) {
        return metrics.horizontalAdvance(text) + 3 * metrics.averageCharWidth();
    };
    header->resizeSection(EventLogModel::TimeColumn,
                          widthOf(QStringLiteral("2026-12-01 09:30:01.000")));
    header->resizeSection(EventLogModel::TypeColumn, widthOf(QStringLiteral("Warning")));
    header->resizeSection(EventLogModel::ResourceColumn, 220);
    header->resizeSection(EventLogModel::PhaseColumn, widthOf(QStringLiteral("createOrUpdate")));
    header->resizeSection(EventLogModel::ReasonColumn,
                          widthOf(QStringLiteral("AuthorizationFailure")));
    header->resizeSection(EventLogModel::CountColumn, widthOf(QStringLiteral("Count")));
    header->setSectionResizeMode(EventLogModel::MessageColumn, QHeaderView::Stretch);
    layout->addWidget(m_view, 1);

    connect(type, &QComboBox::currentIndexChanged, this, [this, type] {
        const int value = type->currentData().toInt();
        m_proxy->setTypeFilter(value < 0 ? std::nullopt
                                         : std::optional(static_cast<Event::Type>(value)));
    });
    connect(text, &QLineEdit::textChanged, m_proxy, &EventLogFilterProxy::setTextFilter);
    connect(m_olderButton, &QToolButton::clicked, this, [this] {
        if (m_model.canFetchMore({}))
            m_model.fetchMore({});
        m_olderButton->setEnabled(false);
    });
    connect(&m_model, &EventLogModel::pageLoaded, this, &LogPanel::updateOlder);
    connect(&m_model, &QAbstractItemModel::modelReset, this, &LogPanel::updateOlder);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &LogPanel::currentChanged);
    connect(m_followButton, &QToolButton::clicked, this, [this](bool checked) {
        m_followChosen = checked;
        m_view->setFollowing(checked);
    });
    connect(m_view, &EventLogView::followingChanged, m_followButton, &QToolButton::setChecked);
    updateOlder();
}

void LogPanel::restoreState(const QSettings &settings)
{
    m_view->header()->restoreState(settings.value(QStringLiteral("logHeader")).toByteArray());
    m_followChosen = settings.value(QStringLiteral("logFollow"), true).toBool();
    m_view->setFollowing(m_followChosen);
}

void LogPanel::saveState(QSettings &settings) const
{
    settings.setValue(QStringLiteral("logHeader"), m_view->header()->saveState());
    settings.setValue(QStringLiteral("logFollow"), m_followChosen);
}

void LogPanel::updateOlder()
{
    m_olderButton->setEnabled(m_model.canFetchMore({}));
}

void LogPanel::currentChanged()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const auto key = current.data(EventLogModel::KeyRole).value<ResourceKey>();
    if (key.isValid())
        Q_EMIT resourceActivated(key);
}

} // namespace converge
