// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "manifestreader.h"
#include "resource.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

namespace converge {

class KindRegistry;
class Workspace;

/// What applying manifests would do, object by object, before anything is written: to the
/// workspace (create, update field by field, unchanged, invalid) and, once reconciled, to the
/// backend (the fields the next reconcile would change, with the Delta the engine uses). Built
/// from ManifestReader's result and the stored objects, with reads only; the window's plan
/// dialog, `converge diff` and `converge apply` share it.
struct ApplyPlan
{
    Q_DECLARE_TR_FUNCTIONS(ApplyPlan)

public:
    /// One changed field: its path and its values before and after, as compact JSON.
    struct Change
    {
        QString path;        ///< spec.publicAccess, metadata.labels.team, apiVersion
        QString before;      ///< empty when absent
        QString after;       ///< empty when absent
        bool secret = false; ///< the values are never shown, only that the field changes

        /// `spec.publicAccess: "None" → "Blob"`; a secret says "(secret) changed".
        QString toString() const;
        friend bool operator==(const Change &, const Change &) = default;
    };

    struct Item
    {
        enum class Action { Create, Update, Unchanged, Invalid };
        /// What the next reconcile would do to the backend.
        enum class Backend {
            None,        ///< nothing to write (also for invalid items)
            Create,      ///< the object is new to the workspace
            Update,      ///< backendChanges lists the fields
            NotObserved, ///< stored but not observed yet: the reconcile looks first
            Held,        ///< would differ, but nothing is written (policy skip, immutable field,
                         ///< being deleted); backendNote says why
        };
        Action action = Action::Invalid;
        ResourceKey key;       ///< empty for errors that name no object
        QString detail;        ///< the changed paths, or the error
        QString location;      ///< file:line:column
        QList<Change> changes; ///< Update: what apply changes in the stored object
        Backend backend = Backend::None;
        QList<Change> backendChanges; ///< Update and Held: observed → desired
        QString backendNote;          ///< a sentence on the backend effect, for people
    };

    QStringList files;
    QList<Item> items;
    /// What apply would store (the engine's annotations of stored objects kept); empty when
    /// anything is invalid.
    QList<Resource> objects;

    /// Reads manifest files, folders and "-" as `converge apply -f` does: Converge, ASO and ACK
    /// documents alike, ASO and ACK accounts joining those of `workspace` (may be null).
    /// `awsAccount`, when set, takes every ACK resource; `gcpProject` every Config Connector
    /// resource without a project-id annotation (KccImporter).
    static ManifestReader::Result readPaths(const QStringList &paths, const Workspace *workspace,
                                            const KindRegistry &kinds,
                                            const QString &awsAccount = {},
                                            const QString &gcpProject = {});
    /// The same for text, `fileName` naming it in locations.
    static ManifestReader::Result readText(const QByteArray &data, const QString &fileName,
                                           const Workspace *workspace, const KindRegistry &kinds);

    /// `workspace` may be null (not created yet): every object is then new.
    static ApplyPlan build(const QStringList &files, const ManifestReader::Result &read,
                           const Workspace *workspace, const KindRegistry &kinds);

    /// Annotations the engine writes (the backend's resource ID, a monitored operation, a
    /// pending request): a manifest never names them, so apply keeps the stored values.
    static QStringList engineAnnotations();

    static QString actionName(Item::Action action);
    int count(Item::Action action) const;
    int count(Item::Backend backend) const;
    bool isValid() const { return count(Item::Action::Invalid) == 0; }
    /// Valid, with something to create or update in the workspace.
    bool hasChanges() const;
    /// Valid, and the next reconcile would write to the backend (create or update).
    bool hasBackendChanges() const;
    /// "2 to create, 1 to update, 3 unchanged" (and "1 invalid").
    QString summary() const;
};

} // namespace converge
