// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "diffmodel.h"

#include "delta.h"
#include "fieldpath.h"
#include "fieldschema.h"

#include <QBrush>
#include <QFont>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace converge {

namespace {

QString secretText()
{
    return DiffModel::tr("(secret)");
}

QString valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return v.toDouble() == double(v.toInteger()) ? QString::number(v.toInteger())
                                                     : QString::number(v.toDouble());
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

const FieldSchema &stringSchema()
{
    static const FieldSchema schema = FieldSchema::string(QStringLiteral("value"));
    return schema;
}

class Walker final
{
public:
    explicit Walker(bool observed)
        : m_haveObserved(observed)
    {}

    QList<DiffModel::Row> rows;

    void field(const FieldSchema &schema, const QString &path, const QJsonValue &desired,
               const QJsonValue &observed)
    {
        if (!schema.compared)
            return;
        switch (schema.type) {
        case FieldSchema::Type::Object:
            if ((desired.isObject() || desired.isUndefined()) &&
                (observed.isObject() || observed.isUndefined()) &&
                !(desired.isUndefined() && observed.isUndefined())) {
                const QJsonObject d = desired.toObject();
                const QJsonObject o = observed.toObject();
                for (const FieldSchema &f : schema.fields)
                    field(f, FieldPath::child(path, f.name), d.value(f.name), o.value(f.name));
                return;
            }
            break;
        case FieldSchema::Type::Map:
            if ((desired.isObject() || desired.isUndefined()) &&
                (observed.isObject() || observed.isUndefined())) {
                const QJsonObject d = desired.toObject();
                const QJsonObject o = observed.toObject();
                QStringList keys = d.keys() + o.keys();
                keys.sort();
                keys.removeDuplicates();
                if (keys.isEmpty())
                    break; // an empty map is one row
                const FieldSchema &item =
                    schema.items.isEmpty() ? stringSchema() : schema.items.first();
                for (const QString &key : std::as_const(keys))
                    field(item, FieldPath::child(path, key), d.value(key), o.value(key));
                return;
            }
            break;
        case FieldSchema::Type::List:
            if ((desired.isArray() || desired.isUndefined()) &&
                (observed.isArray() || observed.isUndefined()) && !schema.items.isEmpty()) {
                const QJsonArray d = desired.toArray();
                const QJsonArray o = observed.toArray();
                const qsizetype n = std::max(d.size(), o.size());
                if (n == 0)
                    break;
                for (qsizetype i = 0; i < n; ++i)
                    field(schema.items.first(), FieldPath::index(path, i),
                          i < d.size() ? d.at(i) : QJsonValue(QJsonValue::Undefined),
                          i < o.size() ? o.at(i) : QJsonValue(QJsonValue::Undefined));
                return;
            }
            break;
        case FieldSchema::Type::String:
        case FieldSchema::Type::Int:
        case FieldSchema::Type::Bool:
        case FieldSchema::Type::Enum:
            break;
        }
        leaf(schema, path, desired, observed);
    }

private:
    void leaf(const FieldSchema &schema, const QString &path, QJsonValue desired,
              const QJsonValue &observed)
    {
        DiffModel::Row row;
        row.path = path;
        if (desired.isUndefined() && schema.hasDefault()) {
            desired = schema.defaultValue;
            row.desiredDefault = true;
        }
        if (desired.isUndefined() && (observed.isUndefined() || !m_haveObserved))
            return; // neither side says anything
        row.desired = schema.secret && !desired.isUndefined() ? secretText() : valueText(desired);
        if (m_haveObserved)
            row.observed =
                schema.secret && !observed.isUndefined() ? secretText() : valueText(observed);
        rows.append(row);
    }

    bool m_haveObserved;
};

QJsonValue maskValue(const FieldSchema &schema, const QJsonValue &value,
                     const QJsonValue &placeholder);

QJsonObject maskObject(const FieldSchema &schema, const QJsonObject &object,
                       const QJsonValue &placeholder)
{
    QJsonObject out = object;
    for (const FieldSchema &f : schema.fields) {
        const auto it = out.find(f.name);
        if (it == out.end())
            continue;
        if (f.secret && placeholder.isNull())
            out.erase(it);
        else
            *it = f.secret ? placeholder : maskValue(f, *it, placeholder);
    }
    return out;
}

QJsonValue maskValue(const FieldSchema &schema, const QJsonValue &value,
                     const QJsonValue &placeholder)
{
    switch (schema.type) {
    case FieldSchema::Type::Object:
        return value.isObject() ? maskObject(schema, value.toObject(), placeholder) : value;
    case FieldSchema::Type::Map:
        if (value.isObject() && !schema.items.isEmpty()) {
            QJsonObject out = value.toObject();
            for (auto it = out.begin(); it != out.end(); ++it)
                *it = schema.items.first().secret
                          ? placeholder
                          : maskValue(schema.items.first(), *it, placeholder);
            return out;
        }
        return value;
    case FieldSchema::Type::List:
        if (value.isArray() && !schema.items.isEmpty()) {
            QJsonArray out;
            for (const QJsonValue &item : value.toArray())
                out.append(schema.items.first().secret
                               ? placeholder
                               : maskValue(schema.items.first(), item, placeholder));
            return out;
        }
        return value;
    case FieldSchema::Type::String:
    case FieldSchema::Type::Int:
    case FieldSchema::Type::Bool:
    case FieldSchema::Type::Enum:
        break;
    }
    return value;
}

} // namespace

DiffModel::Comparison DiffModel::compare(const FieldSchema &specSchema, const QJsonObject &desired,
                                         const std::optional<QJsonObject> &observed)
{
    Comparison c;
    c.observed = observed.has_value();
    Walker walker(c.observed);
    walker.field(specSchema, specSchema.name, desired,
                 observed ? QJsonValue(*observed) : QJsonValue(QJsonValue::Undefined));
    c.rows = walker.rows;
    if (!observed)
        return c;
    c.delta = Delta::between(specSchema, desired, *observed);
    for (const QString &path : std::as_const(c.delta)) {
        bool covered = false;
        for (Row &row : c.rows) {
            if (FieldPath::isWithin(row.path, path) || FieldPath::isWithin(path, row.path)) {
                row.differs = true;
                covered = true;
            }
        }
        // Delta may name a path the walk found nothing under (a value of an unexpected shape);
        // it still gets its row.
        if (!covered)
            c.rows.append(Row{path, {}, {}, false, true});
    }
    return c;
}

QJsonObject DiffModel::maskSecrets(const FieldSchema &schema, const QJsonObject &object,
                                   const QJsonValue &placeholder)
{
    return maskObject(schema, object, placeholder);
}

DiffModel::DiffModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

DiffModel::~DiffModel() = default;

void DiffModel::setComparison(const Comparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    endResetModel();
}

void DiffModel::clear()
{
    setComparison({});
}

int DiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_comparison.rows.size());
}

int DiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool DiffModel::notSet(const Row &row)
{
    return row.desired.isEmpty() && !row.desiredDefault && !row.observed.isEmpty() && !row.differs;
}

QVariant DiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_comparison.rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case PathColumn:
            return row.path;
        case DesiredColumn:
            if (row.desiredDefault)
                return tr("%1 (default)").arg(row.desired);
            // Left out of the spec, with no default of its own (a name that defaults to the
            // resource's): not a blank that seems to differ from what the backend holds.
            if (notSet(row))
                return tr("(not set)");
            return row.desired;
        case ObservedColumn:
            return row.observed;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (row.differs)
            return tr("%1 differs: desired %2, observed %3")
                .arg(row.path, row.desired.isEmpty() ? tr("(absent)") : row.desired,
                     row.observed.isEmpty() ? tr("(absent)") : row.observed);
        if (notSet(row) && index.column() == DesiredColumn)
            return tr("%1 is not in the spec; the backend's value is on the right").arg(row.path);
        return {};
    case Qt::DecorationRole:
        if (index.column() == PathColumn && row.differs)
            return m_icons.icon(StatusKind::Warning);
        return {};
    case Qt::FontRole:
        if (row.differs) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == DesiredColumn && (row.desiredDefault || notSet(row)))
            return QBrush(Qt::gray);
        return {};
    case DiffersRole:
        return row.differs;
    case PathRole:
        return row.path;
    default:
        return {};
    }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PathColumn:
        return tr("Field");
    case DesiredColumn:
        return tr("Desired");
    case ObservedColumn:
        return tr("Observed");
    default:
        return {};
    }
}

} // namespace converge
