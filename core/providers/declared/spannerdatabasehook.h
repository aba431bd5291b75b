// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace converge {

/// The `spannerDatabase` hook: what Spanner's database API does that a declaration cannot say.
/// - The create names the database in a statement (CREATE DATABASE `NAME`, or "NAME" in the
///   PostgreSQL dialect), not in a member.
/// - Spanner answers a database's schema as it is now, not the statements that made it (an
///   ALTER TABLE … ADD COLUMN is folded into its CREATE TABLE). So `ddl` is observed as the
///   statements applied so far, as the workspace last observed them (Terraform keeps them in its
///   state likewise); a database Converge did not make starts from the schema Spanner answers.
///   The schema itself is shown in the details.
/// - A schema only grows: an update of `ddl` sends the statements after those applied, and
///   refuses a spec that does not begin with them (a changed or removed statement would need
///   the database dropped).
/// - Statements are compared as canonical() makes them (spaces and letter case aside).
class SpannerDatabaseHook final : public DeclaredHook
{
public:
    Outcome<QJsonObject> completeInput(const DeclaredCall &call, QJsonObject input,
                                       const QJsonObject &spec, const Observation *latest,
                                       QStringList *secrets) override;
    std::optional<BackendError> observe(Observation &o, const QJsonObject &resource,
                                        const QJsonObject &desired, const Target &target,
                                        const QSet<QString> &sent) override;

    /// `statement` as compared: spaces only between two words, letters upper case, no comma
    /// before a closing parenthesis; quoted text ('…', "…", `…`) as it is.
    static QString canonical(const QString &statement);
    /// Whether `wanted` (the spec's statements) begins with `applied`.
    static bool begins(const QJsonArray &wanted, const QJsonArray &applied);
    /// The statements of `wanted` after `applied`, or why there are none to send: `wanted` does
    /// not begin with `applied` (DdlNotAppendOnly), or holds nothing more.
    static Outcome<QJsonArray> toAppend(const QString &database, const QJsonArray &wanted,
                                        const QJsonArray &applied);
};

} // namespace converge
