// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "statusicons.h"

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace converge {

struct FieldSchema;

/// Desired against observed, field by field over the fields a kind compares for drift: one row
/// per compared leaf (map keys and list items each get a row). Whether a row differs is
/// Delta's verdict, never the model's own: a row differs when it lies on or under (or holds)
/// a path Delta reports.
class DiffModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffModel)

public:
    enum Column { PathColumn, DesiredColumn, ObservedColumn, ColumnCount };
    enum Role { DiffersRole = Qt::UserRole + 1, PathRole };

    struct Row
    {
        QString path;                ///< e.g. spec.tags[0].value
        QString desired;             ///< display text; empty when absent
        QString observed;            ///< display text; empty when absent or not observed yet
        bool desiredDefault = false; ///< absent in the spec, shown as its default
        bool differs = false;
        friend bool operator==(const Row &, const Row &) = default;
    };

    /// What the Diff tab shows: the rows and what Delta said. Computed off the GUI thread.
    struct Comparison
    {
        QList<Row> rows;
        QStringList delta;     ///< Delta::between, in its order
        bool observed = false; ///< false: nothing observed yet (no row differs then)
    };

    /// Compares `desired` with `observed` (both in the kind's spec shape) over `specSchema`.
    /// Secret fields show as "(secret)". Without an observation every row shows the desired
    /// value and none differs.
    static Comparison compare(const FieldSchema &specSchema, const QJsonObject &desired,
                              const std::optional<QJsonObject> &observed);

    /// `object` with every secret field's value replaced by `placeholder`, or removed when the
    /// placeholder is null.
    static QJsonObject maskSecrets(const FieldSchema &schema, const QJsonObject &object,
                                   const QJsonValue &placeholder);

    explicit DiffModel(QObject *parent = nullptr);
    ~DiffModel() override;

    void setComparison(const Comparison &comparison);
    const Comparison &comparison() const { return m_comparison; }
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    /// Absent from the spec with no default, the backend holding a value that is no difference.
    static bool notSet(const Row &row);

    Comparison m_comparison;
    StatusIcons m_icons;
};

} // namespace converge
