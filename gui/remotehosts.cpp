#include "gui/remotehosts.h"

#include "gui/errorbox.h"
#include "gui/helperrecorder.h"
#include "gui/probepanel.h"
#include "gui/recordingcontroller.h"
#include "gui/remoterecorder.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QVBoxLayout>

namespace bpflens {

namespace recenthosts {

namespace {
const QString Key = QStringLiteral("remote/recentHosts");
}

QStringList load()
{
    return QSettings().value(Key).toStringList().mid(0, Max);
}

void remember(const QString &host)
{
    QStringList hosts = load();
    hosts.removeAll(host);
    hosts.prepend(host);
    QSettings().setValue(Key, hosts.mid(0, Max));
}

} // namespace recenthosts

RemoteHostDialog::RemoteHostDialog(RemoteRecorder *recorder, QWidget *parent)
    : QDialog(parent)
    , m_recorder(recorder)
{
    setObjectName(QStringLiteral("remoteHostDialog"));
    setWindowTitle(tr("Record on Host"));
    auto *intro = new QLabel(
        tr("BPF Lens connects with <b>ssh</b>, using your SSH configuration, keys and agent, "
           "and runs <b>bpflens-cli</b> on the host, which records through its own helper (or "
           "as root there). The recording appears here live."),
        this);
    intro->setWordWrap(true);
    m_host = new QComboBox(this);
    m_host->setObjectName(QStringLiteral("remoteHost"));
    m_host->setEditable(true);
    m_host->setInsertPolicy(QComboBox::NoInsert);
    m_host->addItems(recenthosts::load());
    m_host->lineEdit()->setPlaceholderText(tr("user@host or user@host:port"));
    m_host->setMinimumContentsLength(28);
    m_confirmKey = new QCheckBox(tr("Ask me whether to trust a new host key"), this);
    m_confirmKey->setObjectName(QStringLiteral("confirmHostKey"));
    m_confirmKey->setToolTip(
        tr("Off: a host whose key is not in your known hosts is refused, as ssh -o "
           "StrictHostKeyChecking=yes does. On: its fingerprint is shown and the key is added "
           "only if you trust it. A changed key is refused either way."));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("remoteStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setMinimumHeight(fontMetrics().lineSpacing() * 4);
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    // Connect beside the host it connects to; the button box keeps Record and Cancel.
    m_connect = new QPushButton(tr("&Connect"), this);
    m_connect->setObjectName(QStringLiteral("remoteConnect"));
    auto *hostRow = new QHBoxLayout;
    hostRow->addWidget(m_host, 1);
    hostRow->addWidget(m_connect);
    auto *form = new QFormLayout;
    auto *hostLabel = new QLabel(tr("&Host:"), this);
    hostLabel->setBuddy(m_host);
    form->addRow(hostLabel, hostRow);
    form->addRow(QString(), m_confirmKey);
    auto *buttons = new QDialogButtonBox(this);
    m_record = buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    m_record->setObjectName(QStringLiteral("remoteRecord"));
    m_record->setIcon(QIcon::fromTheme(QStringLiteral("media-record")));
    buttons->addButton(QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    auto *statusRow = new QHBoxLayout;
    m_statusIcon = new QLabel(this);
    m_statusIcon->setAlignment(Qt::AlignTop);
    m_statusIcon->hide();
    statusRow->addWidget(m_statusIcon);
    statusRow->addWidget(m_status, 1);
    layout->addLayout(statusRow, 1);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_connect, &QPushButton::clicked, this, &RemoteHostDialog::connectToHost);
    connect(m_host, &QComboBox::currentTextChanged, this, &RemoteHostDialog::hostEdited);
    connect(m_confirmKey, &QCheckBox::toggled, this, &RemoteHostDialog::hostEdited);
    connect(m_recorder, &RemoteRecorder::checked, this, &RemoteHostDialog::checked);
    hostEdited();
}

void RemoteHostDialog::setHost(const QString &host)
{
    m_host->setCurrentText(host);
}

QString RemoteHostDialog::host() const
{
    return m_host->currentText().trimmed();
}

void RemoteHostDialog::hostEdited()
{
    m_passed.clear();
    m_record->setEnabled(false);
    m_connect->setEnabled(!host().isEmpty() && !m_recorder->isChecking());
    m_connect->setDefault(true);
    if (!m_recorder->isChecking())
        showStatus(host().isEmpty() ? tr("Enter a host, then Connect.") : QString(), false);
}

void RemoteHostDialog::connectToHost()
{
    SshTarget target;
    QString error;
    if (!SshTarget::parse(host(), &target, &error)) {
        showStatus(tr("\"%1\" is not a host: enter user@host, host or user@host:port.")
                       .arg(host().left(64)),
                   true);
        return;
    }
    SshPrompting prompting = m_recorder->prompting();
    prompting.confirmNewHostKey = m_confirmKey->isChecked();
    m_recorder->setPrompting(prompting);
    m_recorder->setTarget(target);
    m_connect->setEnabled(false);
    m_record->setEnabled(false);
    showStatus(tr("Connecting to %1…").arg(target.display), false);
    m_recorder->check();
}

void RemoteHostDialog::checked(bool ok, const QString &message)
{
    QString text = message;
    bool warn = !ok;
    // The panel shows the host's availability by now (probesListed comes before checked): what
    // it leaves out of the recording is said here, before Record, not found out afterwards.
    const QString skipped = ok && m_probes ? m_probes->skippedText() : QString();
    if (!skipped.isEmpty()) {
        warn = true;
        text += QLatin1Char('\n') +
                (m_probes->selectedProbes().size() == m_probes->skippedProbes().size()
                     ? tr("None of the selected probes can run there: %1.").arg(skipped)
                     : tr("Selected but not recorded, as that kernel cannot run them: %1.")
                           .arg(skipped));
        m_probes->revealSkipped();
    }
    showStatus(text, warn);
    m_connect->setEnabled(!host().isEmpty());
    if (ok) {
        m_passed = host();
        m_record->setEnabled(true);
        m_record->setDefault(true);
        m_record->setFocus();
    }
}

void RemoteHostDialog::showStatus(const QString &message, bool error)
{
    m_status->setText(message);
    m_status->setProperty("error", error);
    // An icon rather than a colour: it reads the same in light and dark themes.
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_statusIcon->setPixmap(
        error ? style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size) : QPixmap());
    m_statusIcon->setVisible(error);
    // A long message (a probe's reason, German) needs more lines than the dialog was given: it
    // grows instead of cutting them off.
    layout()->activate();
    if (hasHeightForWidth() && heightForWidth(width()) > height())
        resize(width(), heightForWidth(width()));
}

RemoteHostController::RemoteHostController(RecordingController *recording, QWidget *window)
    : QObject(window)
    , m_recording(recording)
    , m_window(window)
    , m_remote(new RemoteRecorder(this))
{
    // The user's own ssh asks through this executable's askpass mode (askpass.h).
    SshPrompting prompting;
    prompting.askpass = QApplication::applicationFilePath();
    prompting.environment << QStringLiteral("BPFLENS_ASKPASS=1");
    m_remote->setPrompting(prompting);

    m_onHost = new QAction(tr("Record on &Host…"), this);
    m_onHost->setObjectName(QStringLiteral("recordOnHost"));
    m_onHost->setIcon(QIcon::fromTheme(QStringLiteral("network-server")));
    connect(m_onHost, &QAction::triggered, this, [this] { chooseHost(); });
    m_recent = new QMenu(tr("Rec&ent Hosts"), window);
    m_recent->setObjectName(QStringLiteral("recentHostsMenu"));
    m_local = new QAction(tr("Record on This &Computer"), this);
    m_local->setObjectName(QStringLiteral("recordLocally"));
    connect(m_local, &QAction::triggered, this, &RemoteHostController::useLocal);
    // The host's probes in the panel as soon as its check passes, before anything records: the
    // user sees what that kernel can run while still choosing. While the window records on a
    // host already, the RecordingController shows them itself.
    connect(m_remote, &Recorder::probesListed, this,
            [this](const QString &kernel, const QHash<QString, ProbeAvailability> &availability) {
                if (!isRemote())
                    m_recording->previewProbes(kernel, availability, m_remote->remoteHost());
            });
    connect(m_remote, &RemoteRecorder::checked, this, [this](bool ok) {
        if (!ok && !isRemote())
            m_recording->restoreProbes();
    });
    connect(m_recording, &RecordingController::recordingChanged, this,
            &RemoteHostController::updateMenu);
    connect(m_recording, &RecordingController::actionsChanged, this,
            &RemoteHostController::updateMenu);
    updateMenu();
}

bool RemoteHostController::isRemote() const
{
    return m_recording->recorder() == m_remote;
}

int RemoteHostController::chooseHost(const QString &host)
{
    Q_EMIT choosingHost();
    RemoteHostDialog dialog(m_remote, m_window);
    dialog.setProbePanel(m_recording->probePanel());
    if (!host.isEmpty()) {
        dialog.setHost(host);
        dialog.connectToHost();
    } else if (isRemote()) {
        dialog.setHost(m_remote->target().display);
    }
    const int result = dialog.exec();
    if (result == QDialog::Accepted)
        useRemote();
    else if (!isRemote())
        m_recording->restoreProbes(); // this computer's kernel again
    return result;
}

void RemoteHostController::useRemote()
{
    if (!m_remote->isAvailable() || m_recording->isRecording())
        return;
    recenthosts::remember(m_remote->target().display);
    if (!isRemote())
        m_localRecorder = m_recording->recorder();
    m_recording->setRecorder(m_remote);
    // The probe panel shows the remote kernel's probes, as check() found them.
    m_remote->announceProbes();
    updateMenu();
    m_recording->recordAction()->trigger();
}

void RemoteHostController::useLocal()
{
    if (m_recording->isRecording() || !isRemote())
        return;
    m_recording->setRecorder(m_localRecorder);
    // Back to this kernel's probes: not known (rather than the host's) until the helper answers.
    m_recording->restoreProbes();
    if (auto *helper = qobject_cast<HelperRecorder *>(m_localRecorder.data()))
        helper->refresh();
    updateMenu();
}

void RemoteHostController::updateMenu()
{
    const bool busy = m_recording->isRecording() || m_recording->isStarting();
    m_onHost->setEnabled(!busy);
    m_local->setEnabled(!busy && isRemote());
    m_recent->clear();
    const QStringList hosts = recenthosts::load();
    for (const QString &host : hosts) {
        QAction *a = m_recent->addAction(host);
        a->setEnabled(!busy);
        connect(a, &QAction::triggered, this, [this, host] { chooseHost(host); });
    }
    m_recent->setEnabled(!hosts.isEmpty());
}

} // namespace bpflens
