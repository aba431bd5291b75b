// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kccimporter.h"

#include "annotations.h"
#include "declaredservices.h"
#include "gcpkinds.h"
#include "interopterms.h"
#include "jsonpath.h"

#include <QMap>

namespace converge {

namespace T = InteropTerms;

namespace {

const QString kccGroupSuffix = QStringLiteral(".cnrm.cloud.google.com");

const KindDeclaration *kccCounterpart(const QString &group, const QString &kind)
{
    for (const ServiceDeclaration &service : GcpKinds::declared().services()) {
        for (const KindDeclaration &d : service.kinds) {
            if (d.kcc.isDeclared() && d.kcc.kind == kind &&
                d.kcc.apiVersion.section(QLatin1Char('/'), 0, 0) == group)
                return &d;
        }
    }
    return nullptr;
}

// What Converge reads of KCC, for the message about a kind it does not: "group Kind, …".
QStringList kccKindsRead()
{
    QStringList kinds;
    for (const ServiceDeclaration &service : GcpKinds::declared().services()) {
        for (const KindDeclaration &d : service.kinds) {
            if (d.kcc.isDeclared())
                kinds << d.kcc.apiVersion.section(QLatin1Char('/'), 0, 0) + QLatin1Char(' ') +
                             d.kcc.kind;
        }
    }
    return kinds;
}

} // namespace

KccImporter::KccImporter(const QList<Resource> &projects, const QString &project)
    : m_project(project)
{
    for (const Resource &r : projects) {
        if (r.kind == GcpKinds::projectKind())
            m_projects << r;
    }
}

bool KccImporter::handles(const QJsonObject &object) const
{
    return object.value(QStringLiteral("apiVersion"))
        .toString()
        .section(QLatin1Char('/'), 0, 0)
        .endsWith(kccGroupSuffix);
}

ManifestTranslator::Result KccImporter::translate(const QList<ForeignDocument> &documents) const
{
    Result result;
    const auto fail = [&result](qsizetype index, const QString &path, const QString &message) {
        result.errors.append(Error{index, path, message});
    };
    QMap<QString, QString> byProjectId; // projectId → the workspace's GcpProject
    QMap<QString, QString> projectIdOf; // GcpProject → its projectId
    for (const Resource &p : m_projects) {
        const QString id = p.spec.value(QStringLiteral("projectId")).toString();
        if (!byProjectId.contains(id))
            byProjectId.insert(id, p.metadata.name);
        projectIdOf.insert(p.metadata.name, id);
    }
    QMap<QString, QPair<QString, qsizetype>> created; // name → projectId, first document
    QHash<QString, QString> resourceIds; // metadata.name → spec.resourceID, where the files say
    for (const ForeignDocument &document : documents) {
        const QJsonValue id = document.object[u"spec"][u"resourceID"];
        if (id.isString())
            resourceIds.insert(document.object[u"metadata"][u"name"].toString(), id.toString());
    }
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const QJsonObject &o = documents.at(i).object;
        const QString apiVersion = o.value(QStringLiteral("apiVersion")).toString();
        const QString group = apiVersion.section(QLatin1Char('/'), 0, 0);
        const QString kind = o.value(QStringLiteral("kind")).toString();
        const KindDeclaration *d = kccCounterpart(group, kind);
        if (!d) {
            fail(i, QStringLiteral("kind"),
                 QStringLiteral("%1 %2 has no Converge counterpart (Converge reads %3)")
                     .arg(group, kind, kccKindsRead().join(QStringLiteral(", "))));
            continue;
        }
        if (apiVersion != d->kcc.apiVersion) {
            fail(i, QStringLiteral("apiVersion"),
                 QStringLiteral("%1 is not a served version of %2 (%3)")
                     .arg(apiVersion, kind, d->kcc.apiVersion));
            continue;
        }
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        const QString name = metadata.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) {
            fail(i, QStringLiteral("metadata.name"), QStringLiteral("is required"));
            continue;
        }
        const QString id = d->kind.name + QLatin1Char('/') + name;
        QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();

        // The project: the annotation's, else the namespace's (KCC's rule), under --gcp-project.
        QString projectId = annotations.take(T::kccProjectId()).toString();
        QString project;
        if (!projectId.isEmpty() && byProjectId.contains(projectId) &&
            (m_project.isEmpty() || projectIdOf.value(m_project) == projectId))
            project = byProjectId.value(projectId);
        else if (!m_project.isEmpty())
            project = m_project;
        // Without the annotation: --gcp-project's project ID; for one to create, the namespace
        // (KCC's rule), else its name (the note says to check it).
        if (projectId.isEmpty() && !m_project.isEmpty()) {
            projectId = projectIdOf.value(m_project,
                                          metadata.value(QStringLiteral("namespace")).toString());
            if (projectId.isEmpty())
                projectId =
                    created.contains(m_project) ? created.value(m_project).first : m_project;
        }
        if (projectId.isEmpty()) {
            fail(i, QStringLiteral("metadata.annotations[\"%1\"]").arg(T::kccProjectId()),
                 QStringLiteral("%1 names no project: add the annotation, or give "
                                "--gcp-project NAME (the GcpProject to put it under)")
                     .arg(id));
            continue;
        }
        if (project.isEmpty())
            project = projectId; // a GcpProject named after the project, created below
        if (!projectIdOf.contains(project)) {
            const auto it = created.constFind(project);
            if (it == created.cend())
                created.insert(project, {projectId, i});
            else if (it->first != projectId)
                fail(i, QStringLiteral("metadata.annotations[\"%1\"]").arg(T::kccProjectId()),
                     QStringLiteral("names project %1, but GcpProject %2 is %3")
                         .arg(projectId, project, it->first));
        } else if (projectIdOf.value(project) != projectId) {
            fail(i, QStringLiteral("metadata.annotations[\"%1\"]").arg(T::kccProjectId()),
                 QStringLiteral("names project %1, but GcpProject %2 is %3")
                     .arg(projectId, project, projectIdOf.value(project)));
            continue;
        }

        QJsonObject outAnnotations;
        if (annotations.take(T::kccDeletionPolicy()).toString() == QLatin1String("abandon"))
            outAnnotations.insert(Annotations::reconcilePolicy(),
                                  QStringLiteral("detach-on-delete"));
        for (auto it = annotations.begin(); it != annotations.end(); ++it)
            outAnnotations.insert(it.key(), it.value());

        QJsonObject spec = o.value(QStringLiteral("spec")).toObject();
        // KCC's labels are the resource's in Google Cloud, but those with a '/' in their key.
        QJsonObject labels;
        QJsonObject ownLabels;
        const QJsonObject kccLabels = metadata.value(QStringLiteral("labels")).toObject();
        for (auto it = kccLabels.begin(); it != kccLabels.end(); ++it) {
            if (!d->kcc.labels.isEmpty() && !it.key().contains(QLatin1Char('/')))
                labels.insert(it.key(), it.value());
            else
                ownLabels.insert(it.key(), it.value());
        }
        if (!labels.isEmpty())
            spec.insert(d->kcc.labels, labels);
        for (auto it = d->kcc.externalRefs.cbegin(); it != d->kcc.externalRefs.cend(); ++it) {
            const QJsonValue ref = JsonPath::take(spec, it->ref.split(QLatin1Char('.')));
            if (ref.isUndefined())
                continue;
            const QJsonObject r = ref.toObject();
            if (r.contains(QStringLiteral("external"))) {
                JsonPath::put(spec, it.key().split(QLatin1Char('.')),
                              r.value(QStringLiteral("external")));
                continue;
            }
            const QString named = r.value(QStringLiteral("name")).toString();
            // {name}: a KCC object; the kind's reference field where it has one.
            const auto reference =
                std::find_if(d->kind.references.cbegin(), d->kind.references.cend(),
                             [&](const KindReference &k) { return k.field == it->ref; });
            if (reference != d->kind.references.cend() && !named.isEmpty()) {
                spec.insert(reference->field, QJsonObject{{QStringLiteral("name"), named}});
                continue;
            }
            // Else its Google name, made as KCC makes it: the object's resourceID when the
            // files hold it, else its name (KCC's default).
            if (!it->names.isEmpty() && !named.isEmpty()) {
                const QString resourceId = resourceIds.value(named, named);
                QString value = it->names;
                value.replace(QStringLiteral("{project}"), projectId)
                    .replace(QStringLiteral("{name}"), resourceId);
                JsonPath::put(spec, it.key().split(QLatin1Char('.')), value);
                continue;
            }
            fail(i, QStringLiteral("spec.") + it->ref,
                 QStringLiteral("names an object of the cluster, which Converge cannot find: "
                                "give %1.external, the Google name (%2)")
                     .arg(it->ref, it.key()));
        }
        spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), project}});

        QJsonObject outMetadata{{QStringLiteral("name"), name}};
        if (!ownLabels.isEmpty())
            outMetadata.insert(QStringLiteral("labels"), ownLabels);
        if (!outAnnotations.isEmpty())
            outMetadata.insert(QStringLiteral("annotations"), outAnnotations);
        result.objects.append(Translated{i,
                                         {{QStringLiteral("apiVersion"), GcpKinds::apiVersion()},
                                          {QStringLiteral("kind"), d->kind.name},
                                          {QStringLiteral("metadata"), outMetadata},
                                          {QStringLiteral("spec"), spec}}});
    }
    for (auto it = created.cbegin(); it != created.cend(); ++it) {
        result.objects.prepend(Translated{
            it->second,
            {{QStringLiteral("apiVersion"), GcpKinds::apiVersion()},
             {QStringLiteral("kind"), GcpKinds::projectKind()},
             {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), it.key()}}},
             {QStringLiteral("spec"),
              QJsonObject{{QStringLiteral("projectId"), it->first},
                          {QStringLiteral("credential"), QJsonObject{}}}}}});
        result.notes.append(
            Error{it->second, QStringLiteral("metadata.annotations"),
                  QStringLiteral("GcpProject/%1 (project ID %2: check it) is created without a "
                                 "credential: connect it (File ▸ Connect account, or "
                                 "spec.credential)")
                      .arg(it.key(), it->first)});
    }
    if (!result.errors.isEmpty()) {
        result.objects.clear();
        result.notes.clear();
    }
    return result;
}

} // namespace converge
