// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

struct DiscoveredResource;
struct ReconcileState;
struct Resource;

/// What the window's filter box and quick filters keep, as a value that can be tested without a
/// view: a case-insensitive substring over name, kind, "Kind/name" and the Ready reason, and
/// optionally only resources that are not Ready, that fail, or that nothing manages yet (backend
/// resources a list discovered, shown so that they can be claimed).
class ResourceFilter final
{
public:
    enum class Quick {
        All,
        NotReady,  ///< Ready is not True, or deletion was requested
        Errors,    ///< Ready False with severity Error (fatal) or Warning (failing, retried)
        Unmanaged, ///< discovered backend resources that no workspace resource manages
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
    /// A discovered row: its text is its name, kind, "Kind/name" and the reason "Unmanaged";
    /// only All and Unmanaged keep it (it has no Ready condition to fail).
    bool matches(const DiscoveredResource &discovered) const;

    friend bool operator==(const ResourceFilter &, const ResourceFilter &) = default;

private:
    bool matchesText(const QString &name, const QString &kind, const QString &reason) const;

    QString m_text;
    Quick m_quick = Quick::All;
};

} // namespace converge
