// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

struct ReconcileState;
struct Resource;

/// What the window's filter box and quick filters keep, as a value that can be tested without a
/// view: a case-insensitive substring over name, kind, "Kind/name" and the Ready reason, and
/// optionally only resources that are not Ready or that fail.
class ResourceFilter final
{
public:
    enum class Quick {
        All,
        NotReady, ///< Ready is not True, or deletion was requested
        Errors,   ///< Ready False with severity Error (fatal) or Warning (failing, retried)
    };

    ResourceFilter() = default;
    explicit ResourceFilter(const QString &text, Quick quick = Quick::All);

    QString text() const { return m_text; }
    /// Surrounding white space is ignored; an empty text keeps everything.
    void setText(const QString &text);
    Quick quick() const { return m_quick; }
    void setQuick(Quick quick) { m_quick = quick; }

    /// True when the filter keeps every resource.
    bool isEmpty() const { return m_text.isEmpty() && m_quick == Quick::All; }

    bool matches(const Resource &resource, const ReconcileState &state) const;

    friend bool operator==(const ResourceFilter &, const ResourceFilter &) = default;

private:
    QString m_text;
    Quick m_quick = Quick::All;
};

} // namespace converge
