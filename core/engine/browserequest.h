// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "discoveredresource.h"
#include "resourcekey.h"
#include "workspacetypes.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace converge {

/// One page of what the backend holds of `kind` under the workspace resource `owner`, asked
/// for by a person browsing (the window's tree expanding a container or a folder). Nothing of
/// it is stored: browsing is looking, and a million blobs are not a workspace's business.
struct BrowseRequest
{
    quint64 id = 0; ///< the asker's, returned with the page
    ResourceKey owner;
    QString kind;
    QString prefix;       ///< a folder's full prefix, or empty for the top
    QString delimiter;    ///< the kind's folderDelimiter, or empty for a flat listing
    QString continuation; ///< the previous page's, or empty for the first
    int pageSize = 500;
    /// When set, no listing: the one resource of this backend name is looked up with a get
    /// (Open by name of what no listing showed yet; an unmanaged row's details, with what only
    /// a get sees, such as a table's keys). One of a kind the store keeps as discovered (not a
    /// folder kind) is stored, as a listing would have.
    QString name;
    /// When its kind is set: the listing is of this unmanaged resource under `owner` (a
    /// container nothing manages, as a listing of the account found it), reached through it as
    /// a claim's probe would be; nothing under it is managed.
    DiscoveredResource within;
};

/// The answer to a BrowseRequest: what no workspace resource manages, as DiscoveredResource
/// values (claimable as they are), and the folders under the prefix.
struct BrowsePage
{
    BrowseRequest request;
    QList<DiscoveredResource> items;
    QStringList folders;    ///< full prefixes, each ending in the delimiter
    QString continuation;   ///< empty on the last page
    int managedSkipped = 0; ///< items on the page that workspace resources manage
    QString error;          ///< set when the page could not be had; then the rest is empty
};

} // namespace converge

Q_DECLARE_METATYPE(converge::BrowsePage)
