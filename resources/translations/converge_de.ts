<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AccountRequest</name>
    <message>
        <source>Name the keychain entry for the account key.</source>
        <translation>Benennen Sie den Schlüsselbund-Eintrag für den Kontoschlüssel.</translation>
    </message>
    <message>
        <source>Choose the file for the account key.</source>
        <translation>Wählen Sie die Datei für den Kontoschlüssel.</translation>
    </message>
    <message>
        <source>Name the environment variable that will hold the account key (letters, digits and &apos;_&apos;).</source>
        <translation>Benennen Sie die Umgebungsvariable, die den Kontoschlüssel enthalten wird (Buchstaben, Ziffern und &apos;_&apos;).</translation>
    </message>
    <message>
        <source>Set %1 to the account key in the environment Converge starts in; nothing was stored.</source>
        <translation>Setzen Sie %1 in der Umgebung, in der Converge startet, auf den Kontoschlüssel; es wurde nichts gespeichert.</translation>
    </message>
    <message>
        <source>The connection string is not valid: %1</source>
        <translation>Die Verbindungszeichenfolge ist ungültig: %1</translation>
    </message>
    <message>
        <source>This connection string has a shared access signature and no account key. Converge reads a SAS only from an environment variable: choose &quot;An environment variable&quot; and set it to the SAS token.</source>
        <translation>Diese Verbindungszeichenfolge enthält eine Shared Access Signature und keinen Kontoschlüssel. Converge liest eine SAS nur aus einer Umgebungsvariable: Wählen Sie „Einer Umgebungsvariable, die Sie setzen“ und setzen Sie sie auf das SAS-Token.</translation>
    </message>
    <message>
        <source>Name the environment variable that will hold the SAS token.</source>
        <translation>Benennen Sie die Umgebungsvariable, die das SAS-Token enthalten wird.</translation>
    </message>
    <message>
        <source>Set %1 to the SAS token in the environment Converge starts in; nothing was stored.</source>
        <translation>Setzen Sie %1 in der Umgebung, in der Converge startet, auf das SAS-Token; es wurde nichts gespeichert.</translation>
    </message>
    <message>
        <source>Enter the account key.</source>
        <translation>Geben Sie den Kontoschlüssel ein.</translation>
    </message>
    <message>
        <source>Enter the storage account&apos;s name.</source>
        <translation>Geben Sie den Namen des Speicherkontos ein.</translation>
    </message>
    <message>
        <source>The account key is not base64, as the portal shows it.</source>
        <translation>Der Kontoschlüssel ist nicht Base64-kodiert, wie ihn das Portal anzeigt.</translation>
    </message>
    <message>
        <source>Enter the access key ID and the secret access key.</source>
        <translation>Geben Sie die Zugriffsschlüssel-ID und den geheimen Zugriffsschlüssel ein.</translation>
    </message>
    <message>
        <source>Name the keychain entry for the access keys.</source>
        <translation>Benennen Sie den Schlüsselbund-Eintrag für die Zugriffsschlüssel.</translation>
    </message>
    <message>
        <source>Choose the file for the access keys.</source>
        <translation>Wählen Sie die Datei für die Zugriffsschlüssel.</translation>
    </message>
    <message>
        <source>Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys) in the environment Converge starts in; nothing was stored.</source>
        <translation>Setzen Sie AWS_ACCESS_KEY_ID und AWS_SECRET_ACCESS_KEY (und AWS_SESSION_TOKEN für temporäre Schlüssel) in der Umgebung, in der Converge startet; nichts wurde gespeichert.</translation>
    </message>
    <message>
        <source>This connection string holds a secret (AccountKey or SharedAccessSignature), which a sign-in does not need: remove it, or choose &quot;Azure Storage account: connection string&quot; to use the key.</source>
        <translation>Diese Verbindungszeichenfolge enthält ein Geheimnis (AccountKey oder SharedAccessSignature), das eine Anmeldung nicht braucht: Entfernen Sie es, oder wählen Sie „Azure-Speicherkonto: Verbindungszeichenfolge“, um den Schlüssel zu verwenden.</translation>
    </message>
    <message>
        <source>The connection string is for the account %1, not %2.</source>
        <translation>Die Verbindungszeichenfolge gilt für das Konto %1, nicht für %2.</translation>
    </message>
    <message>
        <source>Enter the command that prints the token.</source>
        <translation>Geben Sie den Befehl ein, der das Token ausgibt.</translation>
    </message>
    <message>
        <source>Choose a profile of the AWS configuration files.</source>
        <translation>Wählen Sie ein Profil aus den AWS-Konfigurationsdateien.</translation>
    </message>
    <message>
        <source>The command has an unterminated %1 quote.</source>
        <translation>Im Befehl ist ein %1-Anführungszeichen nicht geschlossen.</translation>
    </message>
    <message>
        <source>Enter the Google Cloud project&apos;s ID.</source>
        <translation>Geben Sie die ID des Google-Cloud-Projekts ein.</translation>
    </message>
</context>
<context>
    <name>ApplyPlan</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>%1: (secret) changed</source>
        <translation>%1: (geheim) geändert</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <source>create</source>
        <translation>erstellen</translation>
    </message>
    <message>
        <source>as stored</source>
        <translation>wie gespeichert</translation>
    </message>
    <message>
        <source>the same values, written out</source>
        <translation>dieselben Werte, ausgeschrieben</translation>
    </message>
    <message>
        <source>being deleted</source>
        <translation>wird gelöscht</translation>
    </message>
    <message>
        <source>being deleted; </source>
        <translation>wird gelöscht; </translation>
    </message>
    <message>
        <source>not observed yet: the next reconcile looks first</source>
        <translation>noch nicht beobachtet: der nächste Abgleich sieht zuerst nach</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>keine Änderung</translation>
    </message>
    <message>
        <source>%1 cannot change after creation: the reconcile would fail</source>
        <translation>%1 kann nach dem Erstellen nicht geändert werden: der Abgleich würde fehlschlagen</translation>
    </message>
    <message>
        <source>differs, not corrected (policy skip)</source>
        <translation>weicht ab, wird nicht korrigiert (Richtlinie skip)</translation>
    </message>
    <message>
        <source>update %1</source>
        <translation>%1 aktualisieren</translation>
    </message>
    <message>
        <source>update</source>
        <translation>aktualisieren</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>ungültig</translation>
    </message>
    <message>
        <source>%1 to create</source>
        <translation>%1 zu erstellen</translation>
    </message>
    <message>
        <source>%1 to update</source>
        <translation>%1 zu aktualisieren</translation>
    </message>
    <message>
        <source>%1 unchanged</source>
        <translation>%1 unverändert</translation>
    </message>
    <message>
        <source>%1 invalid</source>
        <translation>%1 ungültig</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Applied: %1 created, %2 updated, %3 unchanged</source>
        <translation>Angewendet: %1 erstellt, %2 aktualisiert, %3 unverändert</translation>
    </message>
</context>
<context>
    <name>StatusIcons</name>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>In Arbeit</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Not managed (skip)</source>
        <translation>Nicht verwaltet (skip)</translation>
    </message>
</context>
<context>
    <name>converge::AboutBox</name>
    <message>
        <source>About Converge</source>
        <translation>Über Converge</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Converge %1&lt;/h3&gt;&lt;p&gt;Declarative cloud resources, reconciled on your desktop.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Converge %1&lt;/h3&gt;&lt;p&gt;Deklarierte Cloud-Ressourcen, abgeglichen auf Ihrem Desktop.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Built from commit &lt;tt&gt;%1&lt;/tt&gt;, running on Qt %2.&lt;/p&gt;&lt;p&gt;Free software under the MIT licence.&lt;/p&gt;&lt;p&gt;&lt;a href=&quot;%3&quot;&gt;Documentation&lt;/a&gt; · &lt;a href=&quot;%4&quot;&gt;%4&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;Gebaut aus Commit &lt;tt&gt;%1&lt;/tt&gt;, läuft mit Qt %2.&lt;/p&gt;&lt;p&gt;Freie Software unter der MIT-Lizenz.&lt;/p&gt;&lt;p&gt;&lt;a href=&quot;%3&quot;&gt;Dokumentation&lt;/a&gt; · &lt;a href=&quot;%4&quot;&gt;%4&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>converge::ApplyPlanDialog</name>
    <message>
        <source>Apply %1</source>
        <translation>%1 anwenden</translation>
    </message>
    <message>
        <source>%1. Nothing will be applied until the manifests are fixed.</source>
        <translation>%1. Nichts wird angewendet, bis die Manifeste korrigiert sind.</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>backend: %1</source>
        <translation>Backend: %1</translation>
    </message>
    <message>
        <source>%1; backend: %2</source>
        <translation>%1; Backend: %2</translation>
    </message>
</context>
<context>
    <name>converge::AsoExportOptionsDialog</name>
    <message>
        <source>%1, at most %2 characters</source>
        <translation>%1, höchstens %2 Zeichen</translation>
    </message>
    <message>
        <source>Export for Azure Service Operator</source>
        <translation>Export für Azure Service Operator</translation>
    </message>
    <message>
        <source>Azure Service Operator needs each storage account&apos;s location, SKU, kind and resource group. Converge does not use them, and the spec of the accounts below leaves some out. What you give here is written to this export only; to not be asked again, add location, sku, accountKind and resourceGroup to the account&apos;s spec.</source>
        <translation>Azure Service Operator braucht von jedem Speicherkonto Standort, SKU, Art und Ressourcengruppe. Converge selbst braucht sie nicht, und dem Spec der Konten unten fehlt davon etwas. Was Sie hier angeben, gilt nur für diesen Export; um nicht wieder gefragt zu werden, tragen Sie location, sku, accountKind und resourceGroup in den Spec des Kontos ein.</translation>
    </message>
    <message>
        <source>Choose File…</source>
        <translation>Datei wählen…</translation>
    </message>
    <message>
        <source>Storage account %1</source>
        <translation>Speicherkonto %1</translation>
    </message>
    <message>
        <source>e.g. westeurope</source>
        <translation>z. B. westeurope</translation>
    </message>
    <message>
        <source>Choose a SKU</source>
        <translation>SKU wählen</translation>
    </message>
    <message>
        <source>Choose a kind</source>
        <translation>Art wählen</translation>
    </message>
    <message>
        <source>e.g. rg-storage</source>
        <translation>z. B. rg-storage</translation>
    </message>
    <message>
        <source>&amp;Location (Azure region):</source>
        <translation>&amp;Standort (Azure-Region):</translation>
    </message>
    <message>
        <source>&amp;SKU (redundancy and tier):</source>
        <translation>&amp;SKU (Redundanz und Leistungsstufe):</translation>
    </message>
    <message>
        <source>Account &amp;kind:</source>
        <translation>Konto&amp;art:</translation>
    </message>
    <message>
        <source>&amp;Resource group:</source>
        <translation>&amp;Ressourcengruppe:</translation>
    </message>
    <message>
        <source>location</source>
        <translation>Standort</translation>
    </message>
    <message>
        <source>SKU</source>
        <translation>SKU</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>resource group</source>
        <translation>Ressourcengruppe</translation>
    </message>
    <message>
        <source>Still needed: %1.</source>
        <translation>Noch nötig: %1.</translation>
    </message>
</context>
<context>
    <name>converge::AzureCliStatus</name>
    <message>
        <source>az account show did not answer within %1 s; check the Azure CLI in a terminal</source>
        <translation>az account show hat nicht innerhalb von %1 s geantwortet; prüfen Sie die Azure CLI in einem Terminal</translation>
    </message>
    <message>
        <source>Nobody is signed in to the Azure CLI: %1 Run az login in a terminal, then Check again.</source>
        <translation>Bei der Azure CLI ist niemand angemeldet: %1 Führen Sie az login in einem Terminal aus, dann „Erneut prüfen“.</translation>
    </message>
    <message>
        <source>az account show failed (exit code %1): %2</source>
        <translation>az account show ist fehlgeschlagen (Exit-Code %1): %2</translation>
    </message>
    <message>
        <source>no message</source>
        <translation>keine Meldung</translation>
    </message>
    <message>
        <source>az account show printed no signed-in user; is this the Azure CLI?</source>
        <translation>az account show hat keinen angemeldeten Benutzer ausgegeben; ist das die Azure CLI?</translation>
    </message>
</context>
<context>
    <name>converge::ConnectDialog</name>
    <message>
        <source>Connect account</source>
        <translation>Konto verbinden</translation>
    </message>
    <message>
        <source>Local Azurite (emulator)</source>
        <translation>Lokales Azurite (Emulator)</translation>
    </message>
    <message>
        <source>Local dynalite (emulator)</source>
        <translation>Lokales dynalite (Emulator)</translation>
    </message>
    <message>
        <source>Azure Storage account: connection string</source>
        <translation>Azure-Speicherkonto: Verbindungszeichenfolge</translation>
    </message>
    <message>
        <source>Azure Storage account: name and key</source>
        <translation>Azure-Speicherkonto: Name und Schlüssel</translation>
    </message>
    <message>
        <source>AWS account (DynamoDB)</source>
        <translation>AWS-Konto (DynamoDB)</translation>
    </message>
    <message>
        <source>&amp;Connect to:</source>
        <translation>&amp;Verbinden mit:</translation>
    </message>
    <message>
        <source>The account&apos;s name in this workspace (metadata.name); resources name it as their owner</source>
        <translation>Der Name des Kontos in diesem Arbeitsbereich (metadata.name); Ressourcen nennen ihn als ihren Besitzer</translation>
    </message>
    <message>
        <source>&amp;Name in the workspace:</source>
        <translation>&amp;Name im Arbeitsbereich:</translation>
    </message>
    <message>
        <source>Connection &amp;string:</source>
        <translation>Verbindungs&amp;zeichenfolge:</translation>
    </message>
    <message>
        <source>The account key goes to the store chosen below; the workspace keeps the account name and endpoints only.</source>
        <translation>Der Kontoschlüssel kommt in die unten gewählte Ablage; der Arbeitsbereich behält nur den Kontonamen und die Endpunkte.</translation>
    </message>
    <message>
        <source>Storage &amp;account:</source>
        <translation>Speicher&amp;konto:</translation>
    </message>
    <message>
        <source>Account &amp;key:</source>
        <translation>Konto&amp;schlüssel:</translation>
    </message>
    <message>
        <source>&amp;Region:</source>
        <translation>&amp;Region:</translation>
    </message>
    <message>
        <source>https://dynamodb.REGION.amazonaws.com (default)</source>
        <translation>https://dynamodb.REGION.amazonaws.com (Standard)</translation>
    </message>
    <message>
        <source>&amp;Endpoint (optional):</source>
        <translation>&amp;Endpunkt (optional):</translation>
    </message>
    <message>
        <source>Access key &amp;ID:</source>
        <translation>Zugriffsschlüssel-&amp;ID:</translation>
    </message>
    <message>
        <source>&amp;Secret access key:</source>
        <translation>&amp;Geheimer Zugriffsschlüssel:</translation>
    </message>
    <message>
        <source>Keep the secret in</source>
        <translation>Das Geheimnis aufbewahren in</translation>
    </message>
    <message>
        <source>The OS keychain</source>
        <translation>Dem Schlüsselbund des Systems</translation>
    </message>
    <message>
        <source>A file readable only by you (mode 0600)</source>
        <translation>Einer nur für Sie lesbaren Datei (Modus 0600)</translation>
    </message>
    <message>
        <source>An environment variable you set (nothing is stored)</source>
        <translation>Einer Umgebungsvariable, die Sie setzen (nichts wird gespeichert)</translation>
    </message>
    <message>
        <source>S&amp;tore:</source>
        <translation>&amp;Ablage:</translation>
    </message>
    <message>
        <source>Keychain &amp;entry:</source>
        <translation>Schlüsselbund-&amp;Eintrag:</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>&amp;Datei:</translation>
    </message>
    <message>
        <source>&amp;Variable:</source>
        <translation>&amp;Variable:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>Credential file</source>
        <translation>Zugangsdatei</translation>
    </message>
    <message>
        <source>Azurite on this machine: blob, queue and table at http://127.0.0.1:10000–10002/devstoreaccount1, with the development key Microsoft publishes (credential emulator: true). Nothing secret is stored.</source>
        <translation>Azurite auf diesem Rechner: Blob, Queue und Table unter http://127.0.0.1:10000–10002/devstoreaccount1, mit dem von Microsoft veröffentlichten Entwicklungsschlüssel (credential emulator: true). Nichts Geheimes wird gespeichert.</translation>
    </message>
    <message>
        <source>dynalite on this machine at http://127.0.0.1:8000, region us-east-1, with fixed dummy keys (credential emulator: true). Nothing secret is stored.</source>
        <translation>dynalite auf diesem Rechner unter http://127.0.0.1:8000, Region us-east-1, mit festen Platzhalterschlüsseln (credential emulator: true). Nichts Geheimes wird gespeichert.</translation>
    </message>
    <message>
        <source>The workspace names the entry; the secret stays in the keychain.</source>
        <translation>Der Arbeitsbereich nennt den Eintrag; das Geheimnis bleibt im Schlüsselbund.</translation>
    </message>
    <message>
        <source>One name=value line per secret; the file is created with mode 0600 and Converge refuses it if others can read it.</source>
        <translation>Eine Zeile name=wert je Geheimnis; die Datei wird mit Modus 0600 angelegt, und Converge verweigert sie, wenn andere sie lesen können.</translation>
    </message>
    <message>
        <source>Converge reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from the environment it starts in; the keys typed above are not used.</source>
        <translation>Converge liest AWS_ACCESS_KEY_ID und AWS_SECRET_ACCESS_KEY aus der Umgebung, in der es startet; die oben eingegebenen Schlüssel werden nicht verwendet.</translation>
    </message>
    <message>
        <source>Converge reads the key (or, for a connection string with a SAS, the SAS token) from this variable in the environment it starts in.</source>
        <translation>Converge liest den Schlüssel (oder, bei einer Verbindungszeichenfolge mit SAS, das SAS-Token) aus dieser Variable in der Umgebung, in der es startet.</translation>
    </message>
    <message>
        <source>The workspace already has an account named %1. Choose another name: Connect never replaces an account.</source>
        <translation>Der Arbeitsbereich hat bereits ein Konto namens %1. Wählen Sie einen anderen Namen: Verbinden ersetzt nie ein Konto.</translation>
    </message>
    <message>
        <source>Storing the secret in the OS keychain…</source>
        <translation>Das Geheimnis wird im Schlüsselbund gespeichert …</translation>
    </message>
    <message>
        <source>Storing the secret in the file…</source>
        <translation>Das Geheimnis wird in der Datei gespeichert …</translation>
    </message>
    <message>
        <source>Nothing was stored: %1</source>
        <translation>Nichts wurde gespeichert: %1</translation>
    </message>
    <message>
        <source>Without the keychain, keep the secret in a file readable only by you (credential file: PATH, mode 0600) or in an environment variable (credential env): choose one under &quot;Keep the secret in&quot; and Connect again.</source>
        <translation>Ohne Schlüsselbund bewahren Sie das Geheimnis in einer nur für Sie lesbaren Datei (credential file: PATH, Modus 0600) oder in einer Umgebungsvariable (credential env) auf: Wählen Sie eines unter „Das Geheimnis aufbewahren in“ und verbinden Sie erneut.</translation>
    </message>
    <message>
        <source>Azure Storage account: sign in with the Azure CLI</source>
        <translation>Azure-Speicherkonto: mit der Azure CLI anmelden</translation>
    </message>
    <message>
        <source>Azure Storage account: token command</source>
        <translation>Azure-Speicherkonto: Token-Befehl</translation>
    </message>
    <message>
        <source>AWS account: named profile</source>
        <translation>AWS-Konto: benanntes Profil</translation>
    </message>
    <message>
        <source>e.g. acmestorage, or give the endpoints below</source>
        <translation>z. B. acmestorage, oder geben Sie unten die Endpunkte an</translation>
    </message>
    <message>
        <source>BlobEndpoint=…;QueueEndpoint=…;TableEndpoint=… (no key)</source>
        <translation>BlobEndpoint=…;QueueEndpoint=…;TableEndpoint=… (ohne Schlüssel)</translation>
    </message>
    <message>
        <source>A connection string without a key, for accounts whose endpoints are not ACCOUNT.blob.core.windows.net (sovereign clouds, private endpoints, Azurite); left empty, Azure&apos;s public endpoints of the account are used</source>
        <translation>Eine Verbindungszeichenfolge ohne Schlüssel, für Konten, deren Endpunkte nicht ACCOUNT.blob.core.windows.net sind (souveräne Clouds, private Endpunkte, Azurite); leer gelassen, werden die öffentlichen Azure-Endpunkte des Kontos verwendet</translation>
    </message>
    <message>
        <source>&amp;Endpoints (optional):</source>
        <translation>&amp;Endpunkte (optional):</translation>
    </message>
    <message>
        <source>the Azure CLI&apos;s default</source>
        <translation>Standard der Azure CLI</translation>
    </message>
    <message>
        <source>&amp;Tenant (optional):</source>
        <translation>&amp;Mandant (optional):</translation>
    </message>
    <message>
        <source>S&amp;ubscription (optional):</source>
        <translation>&amp;Abonnement (optional):</translation>
    </message>
    <message>
        <source>C&amp;heck again</source>
        <translation>Erneut &amp;prüfen</translation>
    </message>
    <message>
        <source>Azure CLI:</source>
        <translation>Azure CLI:</translation>
    </message>
    <message>
        <source>e.g. my-sign-in token --resource https://storage.azure.com/</source>
        <translation>z. B. my-sign-in token --resource https://storage.azure.com/</translation>
    </message>
    <message>
        <source>Co&amp;mmand:</source>
        <translation>&amp;Befehl:</translation>
    </message>
    <message>
        <source>Run without a shell (quote arguments with spaces). It must print JSON in the Azure CLI&apos;s shape, e.g. {&quot;accessToken&quot;: &quot;eyJ0…&quot;, &quot;expires_on&quot;: 1767225600}, a token for https://storage.azure.com/. Converge runs it again before the token expires.</source>
        <translation>Wird ohne Shell ausgeführt (Argumente mit Leerzeichen in Anführungszeichen setzen). Er muss JSON in der Form der Azure CLI ausgeben, z. B. {&quot;accessToken&quot;: &quot;eyJ0…&quot;, &quot;expires_on&quot;: 1767225600}, ein Token für https://storage.azure.com/. Converge führt ihn erneut aus, bevor das Token abläuft.</translation>
    </message>
    <message>
        <source>Nothing secret is stored: the workspace names where the token comes from, and the token stays in memory.</source>
        <translation>Nichts Geheimes wird gespeichert: Der Arbeitsbereich nennt, woher das Token kommt, und das Token bleibt im Arbeitsspeicher.</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>the profile&apos;s region</source>
        <translation>Region des Profils</translation>
    </message>
    <message>
        <source>Nothing secret is stored: the workspace names the profile; its keys or credential_process stay in the AWS files.</source>
        <translation>Nichts Geheimes wird gespeichert: Der Arbeitsbereich nennt das Profil; seine Schlüssel oder sein credential_process bleiben in den AWS-Dateien.</translation>
    </message>
    <message>
        <source>%1 (not supported)</source>
        <translation>%1 (nicht unterstützt)</translation>
    </message>
    <message>
        <source>No profiles in %1 or %2. Add one with aws configure --profile NAME.</source>
        <translation>Keine Profile in %1 oder %2. Legen Sie eines mit aws configure --profile NAME an.</translation>
    </message>
    <message>
        <source>Converge cannot use this profile: %1</source>
        <translation>Converge kann dieses Profil nicht verwenden: %1</translation>
    </message>
    <message>
        <source>The profile names no region: enter one.</source>
        <translation>Das Profil nennt keine Region: Geben Sie eine ein.</translation>
    </message>
    <message>
        <source>The profile&apos;s region: %1.</source>
        <translation>Region des Profils: %1.</translation>
    </message>
    <message>
        <source>Converge cannot use the profile %1: %2</source>
        <translation>Converge kann das Profil %1 nicht verwenden: %2</translation>
    </message>
    <message>
        <source>The profile %1 names no region: enter one.</source>
        <translation>Das Profil %1 nennt keine Region: Geben Sie eine ein.</translation>
    </message>
    <message>
        <source>Local Google Cloud emulators (Pub/Sub, Spanner)</source>
        <translation>Lokale Google-Cloud-Emulatoren (Pub/Sub, Spanner)</translation>
    </message>
    <message>
        <source>Google Cloud project: sign in with the Google Cloud CLI</source>
        <translation>Google-Cloud-Projekt: Anmeldung mit der Google Cloud CLI</translation>
    </message>
    <message>
        <source>e.g. my-project-123</source>
        <translation>z. B. my-project-123</translation>
    </message>
    <message>
        <source>&amp;Project ID:</source>
        <translation>&amp;Projekt-ID:</translation>
    </message>
    <message>
        <source>the Google Cloud CLI&apos;s active account</source>
        <translation>das aktive Konto der Google Cloud CLI</translation>
    </message>
    <message>
        <source>&amp;Account (optional):</source>
        <translation>&amp;Konto (optional):</translation>
    </message>
    <message>
        <source>The Pub/Sub emulator at http://127.0.0.1:8085 and Spanner&apos;s at http://127.0.0.1:9020, as scripts/dev.sh run starts them (credential emulator: true). Any project ID will do. Nothing secret is stored.</source>
        <translation>Der Pub/Sub-Emulator unter http://127.0.0.1:8085 und der von Spanner unter http://127.0.0.1:9020, wie scripts/dev.sh run sie startet (credential emulator: true). Jede Projekt-ID ist recht. Es wird nichts Geheimes gespeichert.</translation>
    </message>
    <message>
        <source>Converge asks the Google Cloud CLI for the signed-in user&apos;s token (gcloud auth print-access-token) and again before it expires; run gcloud auth login first. Nothing secret is stored. A service account key or Application Default Credentials: write the credential in the project&apos;s spec (see the manifest reference).</source>
        <translation>Converge fragt die Google Cloud CLI nach dem Token des angemeldeten Benutzers (gcloud auth print-access-token), und erneut, bevor es abläuft; führen Sie zuerst gcloud auth login aus. Es wird nichts Geheimes gespeichert. Ein Dienstkontoschlüssel oder Application Default Credentials: tragen Sie die Anmeldedaten in die Spezifikation des Projekts ein (siehe die Manifest-Referenz).</translation>
    </message>
</context>
<context>
    <name>converge::DeleteDialog</name>
    <message>
        <source>Delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n resources</source>
        <translation>
            <numerusform>%n Ressource löschen</numerusform>
            <numerusform>%n Ressourcen löschen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weitere</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;Delete &lt;b&gt;%1&lt;/b&gt;?&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; löschen?&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;Delete these &lt;b&gt;%n resources&lt;/b&gt;?&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;Diese &lt;b&gt;%n Ressource&lt;/b&gt; löschen?&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;Diese &lt;b&gt;%n Ressourcen&lt;/b&gt; löschen?&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Delete&lt;/b&gt; deletes %1 in the cloud, waits until %2 gone, then removes %3 from the workspace.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Detach&lt;/b&gt; removes %3 from the workspace only; the cloud resources are left as they are.&lt;/p&gt;&lt;p&gt;Resources whose policy is &lt;i&gt;skip&lt;/i&gt; or &lt;i&gt;detach-on-delete&lt;/i&gt; are always detached.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Löschen&lt;/b&gt; löscht %1 in der Cloud, wartet, bis %2, und entfernt dann %3 aus dem Arbeitsbereich.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Abkoppeln&lt;/b&gt; entfernt %3 nur aus dem Arbeitsbereich; die Cloud-Ressourcen bleiben, wie sie sind.&lt;/p&gt;&lt;p&gt;Ressourcen mit der Richtlinie &lt;i&gt;skip&lt;/i&gt; oder &lt;i&gt;detach-on-delete&lt;/i&gt; werden immer abgekoppelt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>it</source>
        <translation>sie</translation>
    </message>
    <message>
        <source>each of them</source>
        <translation>jede davon</translation>
    </message>
    <message>
        <source>it is</source>
        <translation>sie entfernt ist</translation>
    </message>
    <message>
        <source>they are</source>
        <translation>sie entfernt sind</translation>
    </message>
    <message>
        <source>them</source>
        <translation>sie</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Detach</source>
        <translation>Abkoppeln</translation>
    </message>
</context>
<context>
    <name>converge::DetailsFollower</name>
    <message>
        <source>Unsaved edits</source>
        <translation>Nicht übernommene Änderungen</translation>
    </message>
    <message>
        <source>The spec of %1 has edits that are not applied.</source>
        <translation>Die Spezifikation von %1 hat Änderungen, die nicht übernommen sind.</translation>
    </message>
    <message>
        <source>Keep them as a draft (shown again when you come back to it, marked with * in the tree until then), discard them, or stay.</source>
        <translation>Als Entwurf behalten (wieder gezeigt, wenn Sie zurückkehren, bis dahin im Baum mit * markiert), verwerfen oder bleiben.</translation>
    </message>
    <message>
        <source>Keep as Draft</source>
        <translation>Als Entwurf behalten</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Stay</source>
        <translation>Bleiben</translation>
    </message>
    <message>
        <source>Do not ask again: keep edits as drafts</source>
        <translation>Nicht mehr fragen: Änderungen als Entwurf behalten</translation>
    </message>
</context>
<context>
    <name>converge::DetailsPane</name>
    <message>
        <source>Since</source>
        <translation>Seit</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>Generation</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Spec</source>
        <translation>Spezifikation</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>Beobachtet</translation>
    </message>
    <message>
        <source>Conditions</source>
        <translation>Bedingungen</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — loading…</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — wird geladen …</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is not in the workspace (any more).</source>
        <translation>%1 ist nicht (mehr) im Arbeitsbereich.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source># nothing observed yet</source>
        <translation># noch nichts beobachtet</translation>
    </message>
    <message>
        <source>current</source>
        <translation>aktuell</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Store the edited spec; the controller then reconciles it</source>
        <translation>Die bearbeitete Spezifikation speichern; der Controller gleicht sie dann ab</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Drop the edits and show the stored spec</source>
        <translation>Die Änderungen verwerfen und die gespeicherte Spezifikation zeigen</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Unterschiede</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Not observed yet: the backend has not been read for this resource.</source>
        <translation>Noch nicht beobachtet: Das Backend wurde für diese Ressource noch nicht gelesen.</translation>
    </message>
    <message>
        <source>No difference: the backend matches the spec in every compared field.</source>
        <translation>Kein Unterschied: Das Backend entspricht der Spezifikation in jedem verglichenen Feld.</translation>
    </message>
    <message>
        <source>&lt;b&gt;The stored spec changed&lt;/b&gt; since you started editing; Apply will refuse. Revert to see the stored version.</source>
        <translation>&lt;b&gt;Die gespeicherte Spezifikation hat sich geändert&lt;/b&gt;, seit Sie mit dem Bearbeiten begonnen haben; Anwenden wird verweigert. Verwerfen zeigt die gespeicherte Fassung.</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet …</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Wird geprüft …</translation>
    </message>
    <message>
        <source>Your unsaved edits, kept while another resource was shown: valid; Apply stores them, Revert drops them.</source>
        <translation>Ihre ungespeicherten Änderungen, aufbewahrt, während eine andere Ressource angezeigt wurde: gültig; Anwenden speichert sie, Verwerfen verwirft sie.</translation>
    </message>
    <message>
        <source>Valid; Apply stores it.</source>
        <translation>Gültig; Anwenden speichert sie.</translation>
    </message>
    <message>
        <source>Applied: generation %1.</source>
        <translation>Angewendet: Generation %1.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 changed meanwhile&lt;/b&gt; — nothing was stored. Revert to see the stored version.</source>
        <translation>&lt;b&gt;%1 hat sich inzwischen geändert&lt;/b&gt; — nichts wurde gespeichert. Verwerfen zeigt die gespeicherte Fassung.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Apply failed&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;Anwenden fehlgeschlagen&lt;/b&gt;: %1</translation>
    </message>
    <message>
        <source>1 field differs: %1</source>
        <translation>1 Feld unterscheidet sich: %1</translation>
    </message>
    <message>
        <source>%1 fields differ: %2</source>
        <translation>%1 Felder unterscheiden sich: %2</translation>
    </message>
    <message>
        <source>(secret)</source>
        <translation>(geheim)</translation>
    </message>
    <message>
        <source>%1 is not in the workspace any more</source>
        <translation>%1 ist nicht mehr im Arbeitsbereich</translation>
    </message>
    <message>
        <source>the workspace kept changing; try again</source>
        <translation>der Arbeitsbereich hat sich ständig geändert; versuchen Sie es erneut</translation>
    </message>
    <message>
        <source>Nothing is selected.

Select a resource in the tree to see its spec, what its cloud holds, its conditions and its events.</source>
        <translation>Nichts ist ausgewählt.

Wählen Sie eine Ressource im Baum, um ihre Spezifikation, den Stand in ihrer Cloud, ihre Bedingungen und Ereignisse zu sehen.</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>%1, phase %2, at %3</source>
        <translation>%1, Phase %2, um %3</translation>
    </message>
    <message numerus="yes">
        <source>%n time(s) since %1</source>
        <translation>
            <numerusform>%n-mal seit %1</numerusform>
            <numerusform>%n-mal seit %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>converge::DiffModel</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>%1 differs: desired %2, observed %3</source>
        <translation>%1 unterscheidet sich: gewünscht %2, beobachtet %3</translation>
    </message>
    <message>
        <source>(absent)</source>
        <translation>(fehlt)</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Desired</source>
        <translation>Gewünscht</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>Beobachtet</translation>
    </message>
    <message>
        <source>(secret)</source>
        <translation>(geheim)</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>%1 is not in the spec; the backend&apos;s value is on the right</source>
        <translation>%1 steht nicht in der Spezifikation; der Wert im Backend steht rechts</translation>
    </message>
</context>
<context>
    <name>converge::EventLogModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normal</translation>
    </message>
</context>
<context>
    <name>converge::InteropExport</name>
    <message>
        <source>Azure Service Operator</source>
        <translation>Azure Service Operator</translation>
    </message>
    <message>
        <source>AWS Controllers for Kubernetes</source>
        <translation>AWS Controllers for Kubernetes</translation>
    </message>
    <message>
        <source>Export for %1</source>
        <translation>Export für %1</translation>
    </message>
    <message numerus="yes">
        <source>Export the %n selected resource(s) or everything in the workspace?</source>
        <translation>
            <numerusform>Die %n ausgewählte Ressource oder alles im Arbeitsbereich exportieren?</numerusform>
            <numerusform>Die %n ausgewählten Ressourcen oder alles im Arbeitsbereich exportieren?</numerusform>
        </translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>Auswahl</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>Alles</translation>
    </message>
    <message>
        <source>YAML manifests (*.yaml *.yml)</source>
        <translation>YAML-Manifeste (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>no workspace is open</source>
        <translation>kein Arbeitsbereich ist geöffnet</translation>
    </message>
    <message>
        <source>the workspace does not hold fields that %1 needs; nothing was written</source>
        <translation>der Arbeitsbereich enthält nicht die Felder, die %1 braucht; es wurde nichts geschrieben</translation>
    </message>
    <message>
        <source>nothing selected has a counterpart in %1</source>
        <translation>nichts Ausgewähltes hat eine Entsprechung in %1</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n document(s) to %1. Not exported, with no counterpart:</source>
        <translation>
            <numerusform>%n Dokument nach %1 exportiert. Nicht exportiert, ohne Entsprechung:</numerusform>
            <numerusform>%n Dokumente nach %1 exportiert. Nicht exportiert, ohne Entsprechung:</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed: %1.</source>
        <translation>Export fehlgeschlagen: %1.</translation>
    </message>
    <message>
        <source>Config Connector</source>
        <translation>Config Connector</translation>
    </message>
</context>
<context>
    <name>converge::LogPanel</name>
    <message>
        <source>All events</source>
        <translation>Alle Ereignisse</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normal</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Filter by resource, phase, reason or message</source>
        <translation>Nach Ressource, Phase, Grund oder Meldung filtern</translation>
    </message>
    <message>
        <source>Older events</source>
        <translation>Ältere Ereignisse</translation>
    </message>
    <message>
        <source>Load the previous page of history (or scroll to the top)</source>
        <translation>Die vorige Seite des Verlaufs laden (oder nach oben blättern)</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Write the events the filters show, the whole history, as CSV or JSON</source>
        <translation>Die Ereignisse, die die Filter zeigen, mit der ganzen Historie als CSV oder JSON schreiben</translation>
    </message>
    <message>
        <source>Export the log</source>
        <translation>Protokoll exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Close this notice</source>
        <translation>Diesen Hinweis schließen</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>Folgen</translation>
    </message>
    <message>
        <source>Keep the newest event in sight. Scrolling up stops following; scrolling to the bottom follows again.</source>
        <translation>Das neueste Ereignis im Blick behalten. Nach oben scrollen beendet das Folgen; nach ganz unten scrollen folgt wieder.</translation>
    </message>
</context>
<context>
    <name>converge::MainWindow</name>
    <message>
        <source>%1 — Converge</source>
        <translation>%1 — Converge</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Speicher: %1</translation>
    </message>
    <message>
        <source>Cannot read: %1</source>
        <translation>Kann nicht lesen: %1</translation>
    </message>
    <message>
        <source>Filter by name, kind or reason</source>
        <translation>Nach Name, Art oder Grund filtern</translation>
    </message>
    <message>
        <source>All resources</source>
        <translation>Alle Ressourcen</translation>
    </message>
    <message>
        <source>Not Ready</source>
        <translation>Nicht bereit</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>Aktionen</translation>
    </message>
    <message>
        <source>%1 is hidden by the filter</source>
        <translation>%1 ist durch den Filter ausgeblendet</translation>
    </message>
    <message>
        <source>%1 is not in the workspace</source>
        <translation>%1 ist nicht im Arbeitsbereich</translation>
    </message>
    <message numerus="yes">
        <source>Reconcile queued for %n resource(s)</source>
        <translation>
            <numerusform>Abgleich für %n Ressource eingereiht</numerusform>
            <numerusform>Abgleich für %n Ressourcen eingereiht</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Refresh queued for %n resource(s)</source>
        <translation>
            <numerusform>Aktualisierung für %n Ressource eingereiht</numerusform>
            <numerusform>Aktualisierung für %n Ressourcen eingereiht</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled queued work of %n resource(s)</source>
        <translation>
            <numerusform>Wartende Arbeit von %n Ressource abgebrochen</numerusform>
            <numerusform>Wartende Arbeit von %n Ressourcen abgebrochen</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete failed: %1</source>
        <translation>Löschen fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Detaching %n resource(s)</source>
        <translation>
            <numerusform>%n Ressource wird abgekoppelt</numerusform>
            <numerusform>%n Ressourcen werden abgekoppelt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleting %n resource(s)</source>
        <translation>
            <numerusform>%n Ressource wird gelöscht</numerusform>
            <numerusform>%n Ressourcen werden gelöscht</numerusform>
        </translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Settings saved; workers and resync period apply at the next start</source>
        <translation>Einstellungen gespeichert; Worker und Resync-Intervall gelten ab dem nächsten Start</translation>
    </message>
    <message>
        <source>Settings saved</source>
        <translation>Einstellungen gespeichert</translation>
    </message>
    <message>
        <source>Cannot claim %1 %2: %3</source>
        <translation>%1 %2 kann nicht übernommen werden: %3</translation>
    </message>
    <message>
        <source>%1 %2 is now managed as %3</source>
        <translation>%1 %2 wird jetzt als %3 verwaltet</translation>
    </message>
    <message>
        <source>Unmanaged</source>
        <translation>Nicht verwaltet</translation>
    </message>
    <message numerus="yes">
        <source>Claiming %n resource(s)</source>
        <translation>
            <numerusform>%n Ressource wird übernommen</numerusform>
            <numerusform>%n Ressourcen werden übernommen</numerusform>
        </translation>
    </message>
    <message>
        <source>Open by name</source>
        <translation>Nach Namen öffnen</translation>
    </message>
    <message>
        <source>Kind/name, backend name, URL or ARN:</source>
        <translation>Art/Name, Backend-Name, URL oder ARN:</translation>
    </message>
    <message>
        <source>&amp;Details</source>
        <translation>&amp;Details</translation>
    </message>
    <message>
        <source>&amp;Toolbar</source>
        <translation>&amp;Werkzeugleiste</translation>
    </message>
    <message>
        <source>Nothing matches the filter</source>
        <translation>Nichts passt zum Filter</translation>
    </message>
    <message>
        <source>Nothing in this workspace yet: Connect account (Ctrl+Shift+C), New resource (Ctrl+N) or Apply manifest (Ctrl+Shift+A)</source>
        <translation>Noch nichts in diesem Arbeitsbereich: Konto verbinden (Strg+Umschalt+C), Neue Ressource (Strg+N) oder Manifest anwenden (Strg+Umschalt+A)</translation>
    </message>
    <message>
        <source>%1 holds nothing</source>
        <translation>%1 ist leer</translation>
    </message>
    <message>
        <source>Errors and warnings</source>
        <translation>Fehler und Warnungen</translation>
    </message>
</context>
<context>
    <name>converge::ManifestFlow</name>
    <message>
        <source>Apply manifest</source>
        <translation>Manifest anwenden</translation>
    </message>
    <message>
        <source>Manifests (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Manifeste (*.yaml *.yml *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>new resource</source>
        <translation>neue Ressource</translation>
    </message>
    <message>
        <source>connect dialog</source>
        <translation>Verbindungsdialog</translation>
    </message>
    <message>
        <source>Connect account</source>
        <translation>Konto verbinden</translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation>Anwenden fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Export selection as YAML</source>
        <translation>Auswahl als YAML exportieren</translation>
    </message>
    <message>
        <source>YAML manifests (*.yaml *.yml)</source>
        <translation>YAML-Manifeste (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Log exported to %1</source>
        <translation>Protokoll nach %1 exportiert</translation>
    </message>
    <message>
        <source>Log export failed: %1</source>
        <translation>Export des Protokolls fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>converge::NameLookup</name>
    <message>
        <source>%1 %2 under %3 is managed: it has its own row</source>
        <translation>%1 %2 unter %3 wird verwaltet: Es hat eine eigene Zeile</translation>
    </message>
</context>
<context>
    <name>converge::NewResourceDialog</name>
    <message>
        <source>New resource</source>
        <translation>Neue Ressource</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Owner:</source>
        <translation>&amp;Besitzer:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Apply…</source>
        <translation>&amp;Anwenden …</translation>
    </message>
    <message>
        <source>Show what applying would do, then apply</source>
        <translation>Zeigen, was das Anwenden bewirken würde, dann anwenden</translation>
    </message>
    <message>
        <source>&amp;Reset to template</source>
        <translation>Auf Vorlage &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>A %1 has no owner</source>
        <translation>Ein %1 hat keinen Besitzer</translation>
    </message>
    <message>
        <source>The workspace has no %1 yet: type the name of one you will apply</source>
        <translation>Der Arbeitsbereich hat noch kein %1: Geben Sie den Namen eines an, das Sie anwenden werden</translation>
    </message>
    <message>
        <source>The %1 this resource belongs to</source>
        <translation>Das %1, zu dem diese Ressource gehört</translation>
    </message>
    <message>
        <source>The manifest declares nothing.</source>
        <translation>Das Manifest deklariert nichts.</translation>
    </message>
    <message numerus="yes">
        <source>Valid: %n object(s).</source>
        <translation>
            <numerusform>Gültig: %n Objekt.</numerusform>
            <numerusform>Gültig: %n Objekte.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>converge::OpenByName</name>
    <message>
        <source>No account holds %1</source>
        <translation>Kein Konto enthält %1</translation>
    </message>
    <message>
        <source>No account holds %1: %2</source>
        <translation>Kein Konto enthält %1: %2</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Listing %1 down to %2…</source>
        <translation>Liste %1 bis hinunter zu %2 auf …</translation>
    </message>
    <message>
        <source>Looking %1 up under the accounts…</source>
        <translation>Suche %1 unter den Konten …</translation>
    </message>
    <message>
        <source>%1 is hidden by the filter</source>
        <translation>%1 ist durch den Filter ausgeblendet</translation>
    </message>
    <message>
        <source>Nothing shown is named %1; Refresh its account (F5) to list what it holds now</source>
        <translation>Nichts Angezeigtes heißt %1; aktualisieren Sie sein Konto (F5), um aufzulisten, was es jetzt enthält</translation>
    </message>
    <message>
        <source>%1: found, not listed before</source>
        <translation>%1: gefunden, zuvor nicht aufgelistet</translation>
    </message>
</context>
<context>
    <name>converge::ResourceTreeModel</name>
    <message>
        <source>Deleting</source>
        <translation>Wird gelöscht</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>Letzter Fehler: %1</translation>
    </message>
    <message>
        <source>Failed attempts: %1</source>
        <translation>Fehlgeschlagene Versuche: %1</translation>
    </message>
    <message>
        <source>Unmanaged</source>
        <translation>Nicht verwaltet</translation>
    </message>
    <message>
        <source>%1 %2 in the backend under %3: no resource of this workspace manages it. Claim it to manage it.</source>
        <translation>%1 %2 im Backend unter %3: keine Ressource dieses Arbeitsbereichs verwaltet sie. Übernehmen Sie sie, um sie zu verwalten.</translation>
    </message>
    <message>
        <source>Backend ID: %1</source>
        <translation>Backend-ID: %1</translation>
    </message>
    <message>
        <source>Seen: %1</source>
        <translation>Gesehen: %1</translation>
    </message>
    <message>
        <source>Cannot list %1 of %2: %3</source>
        <translation>Kann %1 von %2 nicht auflisten: %3</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Folder %1 in %2: the %3s whose names start with it. Expand it to list them.</source>
        <translation>Ordner %1 in %2: die %3s, deren Namen damit beginnen. Klappen Sie ihn auf, um sie aufzulisten.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>Last reconciled</source>
        <translation>Zuletzt abgeglichen</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>Unsaved edits to its spec: Apply or Revert them in the Spec tab.</source>
        <translation>Nicht übernommene Änderungen der Spezifikation: im Reiter „Spec“ übernehmen oder verwerfen.</translation>
    </message>
    <message>
        <source>it is not in a container the tree can open</source>
        <translation>es liegt in keinem Container, den der Baum öffnen kann</translation>
    </message>
    <message>
        <source>%1 holds nothing named %2</source>
        <translation>%1 enthält nichts namens %2</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <source>%1 resources of %2</source>
        <translation>%1-Ressourcen von %2</translation>
    </message>
    <message>
        <source>Managed</source>
        <translation>Verwaltet</translation>
    </message>
    <message>
        <source>%1 %2 in the backend under %3 is managed by %4 (account %5), which reaches the same backend: a backend resource has one manager in a workspace.</source>
        <translation>%1 %2 im Backend unter %3 wird von %4 (Konto %5) verwaltet, das dasselbe Backend erreicht: Eine Backend-Ressource hat in einem Arbeitsbereich einen Verwalter.</translation>
    </message>
</context>
<context>
    <name>converge::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Worker threads that reconcile resources in parallel</source>
        <translation>Worker-Threads, die Ressourcen parallel abgleichen</translation>
    </message>
    <message>
        <source>&amp;Workers:</source>
        <translation>&amp;Worker:</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>How often every resource is observed again to detect drift (±25%)</source>
        <translation>Wie oft jede Ressource erneut beobachtet wird, um Abweichungen zu erkennen (±25 %)</translation>
    </message>
    <message>
        <source>&amp;Resync period:</source>
        <translation>&amp;Resync-Intervall:</translation>
    </message>
    <message>
        <source>Workers and the resync period apply the next time Converge starts the controller of a workspace.</source>
        <translation>Worker und Resync-Intervall gelten, wenn Converge den Controller eines Arbeitsbereichs das nächste Mal startet.</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Dem System folgen</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Farbschema:</translation>
    </message>
    <message>
        <source>Ask before deleting (delete or detach)</source>
        <translation>Vor dem Löschen fragen (löschen oder abkoppeln)</translation>
    </message>
    <message>
        <source>When off, Delete deletes the selected resources in the cloud at once, without offering to detach them</source>
        <translation>Wenn aus, löscht Löschen die ausgewählten Ressourcen sofort in der Cloud, ohne das Abkoppeln anzubieten</translation>
    </message>
    <message>
        <source>Ask before leaving unsaved spec edits</source>
        <translation>Vor dem Verlassen nicht übernommener Änderungen fragen</translation>
    </message>
    <message>
        <source>When off, edits of a resource&apos;s spec that are not applied stay as a draft when another resource is selected, marked with * in the tree</source>
        <translation>Wenn aus, bleiben nicht übernommene Änderungen einer Spezifikation als Entwurf erhalten, wenn eine andere Ressource ausgewählt wird, im Baum mit * markiert</translation>
    </message>
</context>
<context>
    <name>converge::SpecValidator</name>
    <message>
        <source>must stay %1 (this editor changes %2; apply a manifest file to create another resource)</source>
        <translation>muss %1 bleiben (dieser Editor ändert %2; wenden Sie eine Manifestdatei an, um eine andere Ressource zu erstellen)</translation>
    </message>
    <message>
        <source>the manifest is empty</source>
        <translation>das Manifest ist leer</translation>
    </message>
    <message>
        <source>the manifest declares nothing</source>
        <translation>das Manifest deklariert nichts</translation>
    </message>
</context>
<context>
    <name>converge::TimelineModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Reconcile %1</source>
        <translation>Abgleich %1</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Backend code</source>
        <translation>Backend-Code</translation>
    </message>
    <message>
        <source>Request ID</source>
        <translation>Anfrage-ID</translation>
    </message>
    <message>
        <source>Writes</source>
        <translation>Schreibvorgänge</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message numerus="yes">
        <source>%n runs that found nothing to do, the first at %1, the last at %2</source>
        <translation>
            <numerusform>%n Lauf, der nichts zu tun fand, der erste um %1, der letzte um %2</numerusform>
            <numerusform>%n Läufe, die nichts zu tun fanden, der erste um %1, der letzte um %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Last reconcile %1</source>
        <translation>Letzter Abgleich %1</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Erledigt</translation>
    </message>
    <message>
        <source>Requeued</source>
        <translation>Neu eingereiht</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Fatal</source>
        <translation>Fatal</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Entfernt</translation>
    </message>
</context>
<context>
    <name>converge::UnmanagedDetails</name>
    <message>
        <source>Claim</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Manage the selected resources as they are: the workspace stores the manifest below and nothing is written to the backend</source>
        <translation>Die ausgewählten Ressourcen so verwalten, wie sie sind: Der Arbeitsbereich speichert das Manifest unten, und nichts wird ins Backend geschrieben</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>Beobachtet</translation>
    </message>
    <message>
        <source>Spec preview</source>
        <translation>Spec-Vorschau</translation>
    </message>
    <message>
        <source># Claim would be refused: %1</source>
        <translation># Übernehmen würde abgelehnt: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 — &lt;i&gt;not managed&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 — &lt;i&gt;nicht verwaltet&lt;/i&gt;</translation>
    </message>
    <message>
        <source>In the backend under %1; no resource of this workspace manages it.</source>
        <translation>Im Backend unter %1; keine Ressource dieses Arbeitsbereichs verwaltet sie.</translation>
    </message>
    <message>
        <source>Backend ID: %1</source>
        <translation>Backend-ID: %1</translation>
    </message>
    <message>
        <source>First seen: %1</source>
        <translation>Zuerst gesehen: %1</translation>
    </message>
    <message>
        <source>Last seen: %1</source>
        <translation>Zuletzt gesehen: %1</translation>
    </message>
    <message>
        <source>spec</source>
        <translation>Spec</translation>
    </message>
    <message>
        <source>backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source># Claim is not offered: %1</source>
        <translation># Übernehmen wird nicht angeboten: %1</translation>
    </message>
    <message>
        <source>Cannot claim: %1</source>
        <translation>Übernehmen nicht möglich: %1</translation>
    </message>
    <message>
        <source>What Claim stores in the workspace, with no write to the backend. Where a listing does not show everything (a table&apos;s keys and indexes), Claim reads the rest with a get first; the name gets a suffix when it is taken.</source>
        <translation>Was „Übernehmen“ im Arbeitsbereich speichert, ohne ins Backend zu schreiben. Wo eine Auflistung nicht alles zeigt (die Schlüssel und Indizes einer Tabelle), liest „Übernehmen“ den Rest zuerst mit einem Get; der Name erhält ein Suffix, wenn er vergeben ist.</translation>
    </message>
</context>
<context>
    <name>converge::WindowActions</name>
    <message>
        <source>&amp;Reconcile now</source>
        <translation>Jetzt &amp;abgleichen</translation>
    </message>
    <message>
        <source>Reconcile the selected resources now</source>
        <translation>Die ausgewählten Ressourcen jetzt abgleichen</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>A&amp;ktualisieren</translation>
    </message>
    <message>
        <source>Observe the selected resources without changing them</source>
        <translation>Die ausgewählten Ressourcen beobachten, ohne sie zu ändern</translation>
    </message>
    <message>
        <source>&amp;Cancel queued work</source>
        <translation>Wartende Arbeit a&amp;bbrechen</translation>
    </message>
    <message>
        <source>Remove the selected resources&apos; queued work</source>
        <translation>Die wartende Arbeit der ausgewählten Ressourcen entfernen</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen …</translation>
    </message>
    <message>
        <source>Delete or detach the selected resources</source>
        <translation>Die ausgewählten Ressourcen löschen oder abkoppeln</translation>
    </message>
    <message>
        <source>&amp;Apply manifest…</source>
        <translation>Manifest an&amp;wenden …</translation>
    </message>
    <message>
        <source>Apply manifest files (or drop them here)</source>
        <translation>Manifestdateien anwenden (oder hierher ziehen)</translation>
    </message>
    <message>
        <source>&amp;Export selection as YAML…</source>
        <translation>Auswahl als YAML e&amp;xportieren …</translation>
    </message>
    <message>
        <source>Write the selected resources as a YAML manifest</source>
        <translation>Die ausgewählten Ressourcen als YAML-Manifest schreiben</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Resource</source>
        <translation>&amp;Ressource</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;New resource…</source>
        <translation>&amp;Neue Ressource …</translation>
    </message>
    <message>
        <source>Create a resource from a template of its kind</source>
        <translation>Eine Ressource aus einer Vorlage ihrer Art erstellen</translation>
    </message>
    <message>
        <source>&amp;Connect account…</source>
        <translation>Konto &amp;verbinden …</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>Workers, resync period, theme and delete confirmation</source>
        <translation>Worker, Resync-Intervall, Farbschema und Löschbestätigung</translation>
    </message>
    <message>
        <source>New &amp;workspace…</source>
        <translation>Neuer &amp;Arbeitsbereich …</translation>
    </message>
    <message>
        <source>Create a workspace file and open it in a new window</source>
        <translation>Eine Arbeitsbereichsdatei anlegen und in einem neuen Fenster öffnen</translation>
    </message>
    <message>
        <source>&amp;Open workspace…</source>
        <translation>Arbeitsbereich ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open a workspace file in a new window</source>
        <translation>Eine Arbeitsbereichsdatei in einem neuen Fenster öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>C&amp;laim</source>
        <translation>&amp;Übernehmen</translation>
    </message>
    <message>
        <source>Manage the selected unmanaged resources, as they are, with no change to the backend</source>
        <translation>Die ausgewählten nicht verwalteten Ressourcen so übernehmen, wie sie sind, ohne Änderung im Backend</translation>
    </message>
    <message>
        <source>for &amp;Azure Service Operator…</source>
        <translation>für &amp;Azure Service Operator …</translation>
    </message>
    <message>
        <source>Write the selection or everything as Azure Service Operator resources, for a cluster</source>
        <translation>Die Auswahl oder alles als Azure-Service-Operator-Ressourcen schreiben, für einen Cluster</translation>
    </message>
    <message>
        <source>for AWS &amp;Controllers for Kubernetes…</source>
        <translation>für AWS &amp;Controllers for Kubernetes …</translation>
    </message>
    <message>
        <source>Open &amp;by name…</source>
        <translation>Nach &amp;Namen öffnen …</translation>
    </message>
    <message>
        <source>Go to a resource by Kind/name, backend name, URL or ARN</source>
        <translation>Zu einer Ressource nach Art/Name, Backend-Name, URL oder ARN gehen</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>E&amp;xportieren</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>The manifest reference, the command line and the interop guide</source>
        <translation>Die Manifest-Referenz, die Befehlszeile und die Anleitung zum Austausch</translation>
    </message>
    <message>
        <source>&amp;About Converge</source>
        <translation>Ü&amp;ber Converge</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Another Converge window runs this workspace&apos;s controller: claim, reconcile, refresh and cancel there</source>
        <translation>Ein anderes Converge-Fenster führt den Controller dieses Arbeitsbereichs aus: dort übernehmen, abgleichen, aktualisieren und abbrechen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Cannot claim: %1</source>
        <translation>Übernehmen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Write the selection or everything as AWS Controllers for Kubernetes resources, for a cluster</source>
        <translation>Die Auswahl oder alles als Ressourcen für AWS Controllers for Kubernetes schreiben, für einen Cluster</translation>
    </message>
    <message>
        <source>for &amp;Google Config Connector…</source>
        <translation>für &amp;Google Config Connector …</translation>
    </message>
    <message>
        <source>Write the selection or everything as Config Connector resources, for a cluster</source>
        <translation>Die Auswahl oder alles als Config-Connector-Ressourcen schreiben, für einen Cluster</translation>
    </message>
    <message>
        <source>Add an Azure Storage or AWS account, a Google Cloud project, or a local emulator</source>
        <translation>Ein Azure-Storage- oder AWS-Konto, ein Google-Cloud-Projekt oder einen lokalen Emulator hinzufügen</translation>
    </message>
</context>
<context>
    <name>converge::WindowStatusBar</name>
    <message>
        <source>Workers busy: %1</source>
        <translation>Beschäftigte Worker: %1</translation>
    </message>
    <message>
        <source>Controller: this window</source>
        <translation>Controller: dieses Fenster</translation>
    </message>
    <message>
        <source>Controller: another process (PID %1)</source>
        <translation>Controller: ein anderer Prozess (PID %1)</translation>
    </message>
    <message>
        <source>Controller: none</source>
        <translation>Controller: keiner</translation>
    </message>
    <message numerus="yes">
        <source>Accounts: %n healthy</source>
        <translation>
            <numerusform>Konten: %n in Ordnung</numerusform>
            <numerusform>Konten: %n in Ordnung</numerusform>
        </translation>
    </message>
    <message>
        <source>Accounts: %1 of %2 not Ready</source>
        <translation>Konten: %1 von %2 nicht bereit</translation>
    </message>
    <message>
        <source>Reconciles: %1/min</source>
        <translation>Abgleiche: %1/min</translation>
    </message>
    <message>
        <source>%1 reconciles since start</source>
        <translation>%1 Abgleiche seit dem Start</translation>
    </message>
    <message>
        <source>%1 queued · %2 waiting to retry</source>
        <translation>%1 eingereiht · %2 warten auf Wiederholung</translation>
    </message>
    <message numerus="yes">
        <source>Due now, and retries and polls waiting for a later time; %n in flight</source>
        <translation>
            <numerusform>Jetzt fällig, und Wiederholungen und Abfragen, die auf einen späteren Zeitpunkt warten; %n in Arbeit</numerusform>
            <numerusform>Jetzt fällig, und Wiederholungen und Abfragen, die auf einen späteren Zeitpunkt warten; %n in Arbeit</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 done; waiting for %3 in flight and %4 due now</source>
        <translation>%1 von %2 erledigt; es laufen %3, %4 sind jetzt fällig</translation>
    </message>
</context>
<context>
    <name>converge::WorkspaceOpener</name>
    <message>
        <source>New workspace</source>
        <translation>Neuer Arbeitsbereich</translation>
    </message>
    <message>
        <source>Converge workspaces (*.converge)</source>
        <translation>Converge-Arbeitsbereiche (*.converge)</translation>
    </message>
    <message>
        <source>%1 exists: opening it</source>
        <translation>%1 existiert: wird geöffnet</translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation>Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <source>Converge workspaces (*.converge);;All files (*)</source>
        <translation>Converge-Arbeitsbereiche (*.converge);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 is this window&apos;s workspace</source>
        <translation>%1 ist der Arbeitsbereich dieses Fensters</translation>
    </message>
    <message>
        <source>Cannot start Converge for %1</source>
        <translation>Converge kann für %1 nicht gestartet werden</translation>
    </message>
    <message>
        <source>Opening %1 in a new window</source>
        <translation>%1 wird in einem neuen Fenster geöffnet</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>Liste leeren</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Declarative cloud resources, reconciled.</source>
        <translation>Deklarative Cloud-Ressourcen, abgeglichen.</translation>
    </message>
    <message>
        <source>The workspace file to open.</source>
        <translation>Die zu öffnende Arbeitsbereichsdatei.</translation>
    </message>
</context>
</TS>
