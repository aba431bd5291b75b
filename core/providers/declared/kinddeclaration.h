// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apifield.h"
#include "declaredkcc.h"
#include "kind.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace converge {

/// One call of a declared kind's API, as its declaration says it: the operation, the members it
/// always carries (`$name` stands for the resource's backend name, `$id` for its backend ID),
/// and where its answer holds the resource.
struct DeclaredCall
{
    QString operation; ///< e.g. DescribeLogGroups; empty when the kind has no such call
    QJsonObject input; ///< members sent as they are, but for the `$name` and `$id` values
    QString result;    ///< dotted member path of the resource in the answer; empty: the answer
    QString match;     ///< when `result` is a list: the member its item must have as `$name`
    /// Spec fields the call carries (create, an update); a follow read's: the fields it reads,
    /// made only for a spec that gives one of them.
    QStringList fields;
    /// Spec fields sent under another member than ApiField::member (an update that names the
    /// field differently from the create).
    QJsonObject members;
    QString inputToken;  ///< the paginator's: the member the next page is asked with
    QString outputToken; ///< and the member that answers it
    QString limitKey;    ///< the member that sets a page's size
    /// An update that takes one attribute a call (SNS's SetTopicAttributes): the members that
    /// carry the attribute's name and value; empty for calls that carry their fields as members.
    QString eachName;
    QString eachValue;
    /// A locate that finds the resource by what its spec says rather than by a name (an SNS
    /// subscription is its topic, protocol and endpoint): the item's members and the spec
    /// fields they must equal. `match` is then the member that holds the backend ID.
    QJsonObject matchFields;
    /// The member an SDK fills with a fresh UUID when the request does not give it
    /// (ClientRequestToken): a new one for each call, the same for its retries.
    QString idempotencyToken;
    /// A call about one item of a collection (DeclaredCollection): the member the item goes in
    /// (a list's, e.g. PolicyArn), or a map entry's key and value members (PolicyName,
    /// PolicyDocument). In inputs, `$key` stands for the entry's key.
    QString item;
    QString key;
    QString value;
    int limit = 0; ///< the largest page the service serves, asked for; 0: the service's
    /// A read of a sub-resource (S3's GetBucketTagging): the error codes that mean it is not
    /// set (NoSuchTagSet), so that the read answers nothing rather than an error of the resource.
    QStringList absent;
    /// A follow read: the member its `result` goes under in what was read (S3's
    /// GetBucketVersioning answers Status, which the spec holds under VersioningConfiguration).
    QString into;
    /// An update: the operation, sent with the same `input`, that removes what the call sets
    /// when every field it carries is empty in the spec (DeleteBucketPolicy for `policy: ""`).
    QString clear;
    /// An update that carries the fields of `fields` that changed, not all those the spec
    /// gives (a Google PATCH, whose updateMask names what it changes).
    bool changedOnly = false;

    bool isDeclared() const { return !operation.isEmpty(); }
};

/// How a kind's tags are read and written when they have calls of their own.
struct DeclaredTags
{
    /// How tags are spelled: a map of strings, or a list of objects with a key and a value
    /// member.
    struct Shape
    {
        bool isList = false;
        QString key;   ///< e.g. Key, key, TagKey
        QString value; ///< e.g. Value, value, TagValue
    };

    QString field; ///< the spec field; empty when the kind has no tags
    Shape spec;    ///< the spec's spelling
    DeclaredCall read;
    QString readMember; ///< the member of read's answer that holds them
    Shape readShape;
    DeclaredCall add;
    QString addMember; ///< the member add sends them in
    Shape addShape;
    DeclaredCall remove;
    QString removeMember; ///< the member remove sends the keys in

    bool isDeclared() const { return !field.isEmpty(); }
};

/// A field given only by reference (`secretString: {env: VARIABLE}`, SecretReference): sent as
/// the value it names, never stored; its drift is judged by reading the value in AWS with `read`
/// and comparing it in memory.
struct DeclaredSecret
{
    QString field;  ///< the spec's name, e.g. secretString
    QString member; ///< the member it is sent as, e.g. SecretString
    DeclaredCall read;
};

/// A spec field whose items are read and changed a call each rather than carried by the create
/// or an update (an IAM role's attached policies, a list of ARNs; its inline policies, a map of
/// name to document). Emptied before the resource is deleted, as AWS wants for IAM.
struct DeclaredCollection
{
    QString field;
    bool isMap = false;
    DeclaredCall read;   ///< lists the items (or a map's keys), page by page
    DeclaredCall value;  ///< a map's: reads one entry's value (`result`)
    DeclaredCall add;    ///< adds an item, or puts an entry
    DeclaredCall remove; ///< removes an item, or an entry by its key
    bool documents =
        false; ///< a map's values are JSON documents (DeclaredManager compares them as such)
};

/// The values of a status member that mean Ready, in progress, being deleted, or failed.
struct DeclaredStates
{
    /// A member whose presence means the resource is scheduled for deletion (a secret's
    /// DeletedDate): such a resource counts as absent. Empty when the kind has none.
    QString gone;
    QString member; ///< dotted path in the read's resource; empty when the kind has none
    QString reason; ///< the member that says why a state is failed (a function's StateReason)
    QStringList ready;
    QStringList progress;
    QStringList deleting;
    QStringList failed;
    /// Values that mean the resource is scheduled for deletion (a KMS key's PendingDeletion): it
    /// counts as absent.
    QStringList scheduled;

    /// Whether a resource of the kind can be scheduled for deletion rather than gone at once.
    bool canBeScheduled() const { return !gone.isEmpty() || !scheduled.isEmpty(); }
};

/// How a declared kind maps to its counterpart in AWS Controllers for Kubernetes (the `ack:` part
/// of its declaration), for one exporter and one importer. Spec fields keep their names unless
/// `fields` renames them; a reference (`topicRef: {name}`) is ACK's `topicRef: {from: {name}}`.
struct DeclaredAck
{
    /// A spec field that holds a secret in plain text in ACK's document when another field has
    /// a value (an SSM SecureString's value): import never stores it. With `into`, the resource
    /// is kept with that field given by reference (a keychain entry the note names); without,
    /// it is refused.
    struct PlainSecret
    {
        QString field;
        QJsonObject when; ///< spec field → the value that makes `field` secret
        QString into;     ///< the spec field that takes the value by reference (secureValue)
    };

    QString apiVersion;            ///< e.g. sqs.services.k8s.aws/v1alpha1; empty: no counterpart
    QString kind;                  ///< e.g. Queue
    QMap<QString, QString> fields; ///< spec field → ACK's name, where they differ
    QStringList omit;              ///< spec fields ACK's kind does not have
    /// Reference fields (`{env|keychain|file}`) that ACK holds as a Kubernetes Secret's key,
    /// `{name, key, namespace?}`.
    QStringList secretKeyRefs;
    /// adoption-fields: ACK's key → the spec field that holds it, or `$id` for the recorded
    /// resource ID; empty: `{nameField: …}`.
    QJsonObject adoptionFields;
    QList<PlainSecret> plainSecrets;
    /// Spec fields (dotted paths) that name a file on this desktop (a function's code.file),
    /// which a cluster cannot read: a resource that gives one is not exported, and the note
    /// that says so tells what ACK takes instead (`localInstead`).
    QStringList local;
    QString localInstead;

    bool isDeclared() const { return !apiVersion.isEmpty() && !kind.isEmpty(); }
    /// ACK's name of spec field `field`.
    QString ackField(const QString &field) const { return fields.value(field, field); }
};

/// A kind of a model-described API, read from its declaration (resources/kinds/): the Kind
/// people see (fields, validation, documentation) and what a generic Manager needs to drive it.
struct KindDeclaration
{
    Kind kind;
    QString service;      ///< the declaration file's service, e.g. logs
    QString serviceTitle; ///< e.g. CloudWatch Logs
    /// A named C++ hook for an irregular service (iamPolicyVersions: IamPolicyVersions); empty
    /// for none.
    QString hook;
    QList<ApiField> fields;
    QString nameMember; ///< the member of a read's resource with the backend name
    /// The backend name is the ID too (an S3 bucket: names are global and no read answers an
    /// ARN).
    bool idIsName = false;
    QString idMember; ///< and the one with its backend ID (an ARN, a URL)
    DeclaredAck ack;
    DeclaredKcc kcc; ///< the Google Cloud kinds' Config Connector counterpart

    /// Fields whose members travel inside one map member rather than beside it (SQS's and SNS's
    /// Attributes): their members, and the map's. Values go as strings, as those APIs want.
    QString attributesMember;
    QStringList attributeMembers;
    /// A call that finds the backend ID from the name before any other call needs `$id` (SQS's
    /// GetQueueUrl); its `result` is the ID's path. Undeclared: the ID comes from reads.
    DeclaredCall locate;
    /// list's items are backend IDs (URLs, ARNs) rather than objects or names: the name is an
    /// ID's last segment.
    bool listItemsAreIds = false;

    DeclaredCall create;
    QStringList alreadyExists; ///< error codes of create that mean "it is there"
    /// The create answers the resource that is there as if it had made it (SNS's CreateTopic
    /// and Subscribe): it adopts, so the engine creates a resource never seen without a get.
    bool createIsIdempotent = false;
    /// The create answers the resource as the read does (Google's PUT of a topic): its answer is
    /// observed, with no read after it.
    bool createAnswersResource = false;
    DeclaredCall read;
    /// Reads after `read` whose answers (their `result`) add to what it read (an IAM policy's
    /// document, in its default version); `$read.MEMBER` in their inputs stands for a member of
    /// what was read so far.
    QList<DeclaredCall> followReads;
    QList<DeclaredCall> updates;
    DeclaredCall remove;
    DeclaredCall list;
    bool listIsComplete = false; ///< a list item is all that read() would observe
    /// A kind listed parent by parent (a Spanner instance's databases: no call lists a
    /// project's): the parents' list, and the member of `list`'s input each parent's ID goes
    /// in (its last segment).
    DeclaredCall listWithin;
    QString listWithinMember;
    /// The read's answer for a missing resource says nothing sure (the Spanner emulator answers
    /// 500): when it fails so, the resource is looked for in the list, and is NotFound if absent.
    bool absentConfirmedByList = false;
    /// Google's long-running operations of the resource that are not done (its operations'
    /// list, filtered): while one is, the resource is in progress (an update in flight), as its
    /// state says for a create.
    DeclaredCall pending;
    /// Fields the API answers as a full name (projects/P/instanceConfigs/C) that the spec holds
    /// short (C): observed as their last segment.
    QStringList shortNames;
    /// Spec fields the resource's ID says (a database's instance, in
    /// projects/P/instances/I/databases/D): field → the ID's segment before its value.
    QMap<QString, QString> fromId;
    /// Listed items that are AWS's own, never a person's to claim (KMS's alias/aws/… aliases,
    /// EventBridge's default bus): a member and the anchored pattern its value matches.
    QString listExcludeMember;
    QString listExcludePattern;
    DeclaredTags tags;
    QList<DeclaredSecret> secrets;
    /// A kind whose value is a secret or not by another field (an SSM parameter of type
    /// SecureString): when `field` is `value`, the value is given by reference in `secret` and
    /// the plain field (`plain`) is neither allowed nor ever observed; otherwise `plain` is.
    struct SecretWhen
    {
        QString field;
        QString value;
        QString secret;
        QString plain;
    } secretWhen;
    QList<DeclaredCollection> collections;
    /// String fields that hold JSON documents (policies): compared as documents, not as text,
    /// and read back percent-decoded where the API answers them so (IAM).
    QStringList documents;
    /// Fields AWS takes but never answers (a partner bus's eventSourceName): observed as asked,
    /// so that neither drift nor an immutable change is seen where nothing can be read.
    QStringList writeOnly;
    /// Lists whose order means nothing (an S3 bucket's `tagging.tagSet`), by dotted spec path:
    /// observed in the spec's order when they hold the same items.
    QStringList unordered;
    DeclaredStates states;
    QStringList notFound; ///< error codes that mean the resource is absent
    /// The API's answers leave out a field whose value is its type's zero (proto3's JSON, so
    /// Google's: `retainAckedMessages: false` is not said): absent means false, 0 or "".
    bool omitsZeroValues = false;
};

} // namespace converge
