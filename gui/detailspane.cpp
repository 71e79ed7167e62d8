#include "gui/detailspane.h"

#include "core/probecatalog.h"
#include "gui/colors.h"
#include "gui/models/eventmodels.h"
#include "gui/models/overviewmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/overviewpage.h"

#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace bpflens {

namespace {

// The frame the tables name the event by in bold, the "cut short" marker in italics: the model
// is Qt Core only and has no fonts.
class FrameFonts : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(index.data(StackFramesModel::IsKeyFrameRole).toBool());
            font.setItalic(index.data(StackFramesModel::IsMarkerRole).toBool());
            return font;
        }
        return QIdentityProxyModel::data(index, role);
    }
};

// The stack id of an event of a type with stacks, else 0.
quint32 stackIdOf(const SessionModel &session, const EventRef &ref, bool *hasStacks)
{
    quint32 id = 0;
    *hasStacks = false;
    visitEventType(ref.type, [&]<typename E>() {
        if constexpr (hasStackId<E>) {
            *hasStacks = true;
            id = session.events().event<E>(ref.index).stackId;
        }
    });
    return id;
}

// A frames view as the details show a stack: leaf first, the function stretched, bold key frame.
QTreeView *framesViewOf(StackFramesModel *frames, QWidget *parent)
{
    auto *fonts = new FrameFonts(parent);
    fonts->setSourceModel(frames);
    auto *view = new QTreeView(parent);
    view->setModel(fonts);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The function takes what the module and the kind leave (fitFrameColumns()); long names
    // are read whole in the tool tip.
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(StackFramesModel::FunctionColumn, QHeaderView::Stretch);
    view->header()->setSectionResizeMode(StackFramesModel::ModuleColumn, QHeaderView::Interactive);
    view->header()->setSectionResizeMode(StackFramesModel::SourceColumn, QHeaderView::Interactive);
    view->header()->setSectionResizeMode(StackFramesModel::KindColumn, QHeaderView::Interactive);
    return view;
}

} // namespace

DetailsPane::DetailsPane(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Field"), tr("Value")});
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setAccessibleName(tr("Event details"));
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    // A long value (a path, an argument list) is cut in the middle, where the file name and the
    // last arguments stay visible, with the whole value in its tool tip: scrolling a narrow dock
    // sideways hid the field names (German's longer ones first).
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tree->header()->setStretchLastSection(true);

    // The frames of a CPU sample or an off-CPU wait under its fields, as hotspot shows a
    // selected sample's stack: leaf first, each with its module and whether it is kernel code.
    m_frames = new StackFramesModel(this);
    m_framesView = framesViewOf(m_frames, this);
    m_framesView->setAccessibleName(tr("Stack frames"));
    // An off-wake wait's waker: its stack at the wakeup below the blocked one's, under a line
    // naming it, as offwaketime prints the two.
    m_wakerFrames = new StackFramesModel(this);
    m_waker = new QWidget(this);
    auto *wakerLayout = new QVBoxLayout(m_waker);
    wakerLayout->setContentsMargins(0, 0, 0, 0);
    m_wakerLabel = new QLabel(m_waker);
    m_wakerLabel->setWordWrap(true);
    m_wakerFramesView = framesViewOf(m_wakerFrames, m_waker);
    m_wakerFramesView->setAccessibleName(tr("Waker's stack frames"));
    // At the top when there are no frames under it (a wakeup not seen), beside the fields.
    wakerLayout->addWidget(m_wakerLabel, 0, Qt::AlignTop);
    wakerLayout->addWidget(m_wakerFramesView);
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_tree);
    m_split->addWidget(m_framesView);
    m_split->addWidget(m_waker);
    // The fields are few and short; a stack is often 20 frames deep.
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
    m_split->setStretchFactor(2, 3);
    layout->addWidget(m_split);
    m_framesView->viewport()->installEventFilter(this);
    m_wakerFramesView->viewport()->installEventFilter(this);
    connect(m_state, &ViewState::selectedEventChanged, this, &DetailsPane::refresh);
    // The frames' ids are the old table's until the new session is in.
    connect(m_session, &SessionModel::aboutToReset, m_frames, &StackFramesModel::clear);
    connect(m_session, &SessionModel::aboutToReset, m_wakerFrames, &StackFramesModel::clear);
    connect(m_session, &SessionModel::reset, this, &DetailsPane::refresh);
    refresh();
}

void DetailsPane::refresh()
{
    m_tree->clear();
    const EventRef ref = m_state->selectedEvent();
    const auto fields = EventTableModel::eventFields(*m_session, ref);
    bool hasStacks = false;
    const quint32 stackId = fields.isEmpty() ? 0 : stackIdOf(*m_session, ref, &hasStacks);
    m_frames->setStack(&m_session->stacks(), ref.type, stackId);
    m_framesView->setVisible(hasStacks);
    // An off-wake wait, or a thread state's wait: who ended it, and from where.
    bool offWake = !fields.isEmpty() && ref.type == EventType::OffWake;
    OffWakeEvent e;
    if (offWake) {
        e = m_session->events().event<OffWakeEvent>(ref.index);
    } else if (!fields.isEmpty() && ref.type == EventType::ThreadState) {
        const ThreadStateEvent s = m_session->events().event<ThreadStateEvent>(ref.index);
        offWake = s.blocked();
        e.wakerComm = s.wakerComm;
        e.wakerPid = s.wakerPid;
        e.wakerTid = s.wakerTid;
        e.wakerStackId = s.wakerStackId;
    }
    if (offWake) {
        m_wakerFrames->setWakerStack(&m_session->stacks(), e.wakerStackId);
        if (e.wakerComm.isEmpty() && ref.type == EventType::ThreadState)
            m_wakerLabel->setText(tr("No wakeup seen ended this wait (it lasted past the "
                                     "recording, or its wakeup was not seen)."));
        else if (e.wakerComm.isEmpty())
            m_wakerLabel->setText(tr("Its wakeup was not seen (preempted, or lost)."));
        else if (e.wakerTid == 0)
            m_wakerLabel->setText(tr("Woken from an interrupt (%1), whose stack was:")
                                      .arg(QString::fromUtf8(e.wakerComm)));
        else
            m_wakerLabel->setText(tr("Woken by %1 (PID %2, TID %3), whose stack was:")
                                      .arg(QString::fromUtf8(e.wakerComm))
                                      .arg(e.wakerPid)
                                      .arg(e.wakerTid));
        m_wakerFramesView->setVisible(!e.wakerComm.isEmpty());
    } else {
        m_wakerFrames->clear();
    }
    m_waker->setVisible(offWake);
    fitFrameColumns();
    if (fields.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_tree, {tr("No event selected")});
        item->setFlags(Qt::NoItemFlags);
        // Across both columns, so the placeholder does not size the field column.
        item->setFirstColumnSpanned(true);
        return;
    }
    for (const auto &f : fields) {
        auto *item = new QTreeWidgetItem(m_tree, {f.first, f.second});
        item->setToolTip(1, f.second);
    }
}

void DetailsPane::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Under a table across a laptop's screen the pane is some 1366 by 230 pixels: fields, stack
    // and waker's stack one above the other got three rows each, side by side they get ten or
    // more. In a dock (taller than wide) they stay one above the other.
    m_split->setOrientation(width() >= 2 * height() ? Qt::Horizontal : Qt::Vertical);
    fitFrameColumns();
}

bool DetailsPane::eventFilter(QObject *watched, QEvent *event)
{
    // A frames view's width changes with the splitter (dragged, or turned by resizeEvent())
    // after the pane's own resize: the columns are fitted to the width it ends with.
    if (event->type() == QEvent::Resize &&
        (watched == m_framesView->viewport() || watched == m_wakerFramesView->viewport()))
        fitFrameColumns();
    return QWidget::eventFilter(watched, event);
}

void DetailsPane::fitFrameColumns()
{
    // The module, the source and the kind as wide as their contents, but never more than about
    // two thirds of a narrow dock together: "libpython3.11.so.1.0" and "Benutzer" left the
    // function names 35 pixels.
    for (QTreeView *view : {m_framesView, m_wakerFramesView}) {
        const QAbstractItemModel *model = view->model();
        QFont bold = view->font();
        bold.setBold(true); // the key frame's row
        const QFontMetrics metrics(bold);
        auto contents = [&](int column) {
            int w = view->header()->sectionSizeHint(column);
            for (int r = 0; r < model->rowCount(); ++r)
                w = std::max(w,
                             metrics.horizontalAdvance(model->index(r, column).data().toString()) +
                                 2 * metrics.averageCharWidth());
            return w;
        };
        const int width = view->viewport()->width();
        // A stack without source lines (kernel only, no DWARF) gives the source column nothing.
        bool anySource = false;
        for (int r = 0; r < model->rowCount() && !anySource; ++r)
            anySource =
                !model->index(r, StackFramesModel::SourceColumn).data().toString().isEmpty();
        view->setColumnHidden(StackFramesModel::SourceColumn, !anySource);
        view->header()->resizeSection(
            StackFramesModel::ModuleColumn,
            std::min(contents(StackFramesModel::ModuleColumn), width * (anySource ? 2 : 3) / 10));
        if (anySource)
            view->header()->resizeSection(
                StackFramesModel::SourceColumn,
                std::min(contents(StackFramesModel::SourceColumn), width * 3 / 10));
        view->header()->resizeSection(StackFramesModel::KindColumn,
                                      std::min(contents(StackFramesModel::KindColumn), width / 5));
    }
}

QString DetailsPane::value(const QString &field) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->text(0) == field)
            return m_tree->topLevelItem(i)->text(1);
    }
    return {};
}

SummaryPanel::SummaryPanel(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    auto *layout = new QVBoxLayout(this);
    m_factsLine = new QLabel(this);
    m_factsLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path must not widen the window: the line is cut, its tooltip has all of it.
    m_factsLine->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_overview = new OverviewPage(session, state, this);
    m_detailsButton = new QToolButton(this);
    m_detailsButton->setText(tr("Session details"));
    m_detailsButton->setCheckable(true);
    m_detailsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_detailsButton->setArrowType(Qt::RightArrow);
    m_detailsButton->setAutoRaise(true);
    m_details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(m_details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    m_facts = new QTreeWidget(m_details);
    m_facts->setColumnCount(2);
    m_facts->setHeaderLabels({tr("Session"), QString()});
    m_facts->setRootIsDecorated(false);
    m_facts->setAccessibleName(tr("Session information"));
    m_facts->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_probes = new QTreeWidget(m_details);
    m_probes->setColumnCount(ProbeColumnCount);
    // Lost, not seen and unfinished are different causes, each a column of its own.
    m_probes->setHeaderLabels({tr("Probe"), tr("Events seen"), tr("Lost"), tr("Not seen"),
                               tr("Unfinished"), tr("Options"), tr("Attached to")});
    m_probes->headerItem()->setToolTip(LostColumn, lostExplanation());
    m_probes->headerItem()->setToolTip(UnseenColumn, unseenExplanation());
    m_probes->headerItem()->setToolTip(UnfinishedColumn, unfinishedExplanation());
    m_probes->setRootIsDecorated(false);
    m_probes->setIconSize(QSize(10, 10)); // a swatch no taller than the text
    m_probes->setAlternatingRowColors(true);
    m_probes->setAccessibleName(tr("Probe setup"));
    m_probes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    detailsLayout->addWidget(m_facts, 1);
    detailsLayout->addWidget(m_probes, 1);
    // The answer first; the facts of the recording are there when asked for.
    m_details->hide();
    layout->addWidget(m_factsLine);
    // Scrolls rather than grows: in Chinese its sections asked for 726 px of height, more than
    // a 1366x768 laptop's window has for a page.
    auto *overviewScroll = new QScrollArea(this);
    overviewScroll->setWidget(m_overview);
    overviewScroll->setWidgetResizable(true);
    overviewScroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(overviewScroll, 2);
    layout->addWidget(m_detailsButton, 0, Qt::AlignLeft);
    layout->addWidget(m_details, 1);
    connect(m_detailsButton, &QToolButton::toggled, this, [this](bool on) {
        m_details->setVisible(on);
        m_detailsButton->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_session, &SessionModel::reset, this, &SummaryPanel::refresh);
    connect(m_session, &SessionModel::appended, this, &SummaryPanel::refresh);
    refresh();
}

void SummaryPanel::setRecording(bool recording)
{
    if (recording == m_recording)
        return;
    m_recording = recording;
    refresh();
}

void SummaryPanel::refresh()
{
    m_facts->clear();
    m_probes->clear();
    const SessionInfo &info = m_session->info();
    const EventStore &store = m_session->events();
    auto fact = [this](const QString &name, const QString &value) {
        new QTreeWidgetItem(m_facts, {name, value});
    };
    fact(tr("File"), m_session->path().isEmpty() ? tr("(none)") : m_session->path());
    // Nothing recorded or opened: no facts about a session that does not exist.
    if (m_session->path().isEmpty() && info.startMonotonicNs == 0 && m_session->isEmpty()) {
        fact(tr("Session"), tr("none yet: record one, or open a .bpflens file"));
        m_factsLine->clear();
        m_factsLine->setToolTip({});
        m_factsLine->hide();
        m_detailsButton->hide();
        m_details->hide();
        return;
    }
    m_factsLine->show();
    m_detailsButton->show();
    m_details->setVisible(m_detailsButton->isChecked());
    const QString host =
        info.sshTarget.isEmpty() ? info.host : tr("%1 via %2").arg(info.host, info.sshTarget);
    fact(tr("Host"), host);
    fact(tr("Kernel"), info.kernelRelease);
    // A live recording has no file yet, so no schema.
    fact(tr("Recorded by"),
         info.schemaVersion > 0
             ? tr("BPF Lens %1 (schema %2)").arg(info.appVersion).arg(info.schemaVersion)
             : tr("BPF Lens %1").arg(info.appVersion));
    fact(tr("Started (UTC)"),
         info.startWall.isValid() ? info.startWall.toString(Qt::ISODateWithMs) : tr("unknown"));
    // A recording still running, or one that was killed, has no end yet: it lasts at least
    // until its newest data (SessionModel's span ends one past it).
    const quint64 lastNs = m_session->endTimeNs() > 0 ? m_session->endTimeNs() - 1 : 0;
    QString duration;
    if (info.endMonotonicNs > info.startMonotonicNs)
        duration = EventTableModel::formatDuration(info.endMonotonicNs - info.startMonotonicNs);
    else if (m_recording && info.startMonotonicNs > 0 && lastNs > info.startMonotonicNs)
        duration = tr("%1 so far (recording)")
                       .arg(EventTableModel::formatDuration(lastNs - info.startMonotonicNs));
    else if (info.startMonotonicNs > 0 && lastNs > info.startMonotonicNs)
        duration = tr("%1 up to the newest data (the recording was not stopped cleanly)")
                       .arg(EventTableModel::formatDuration(lastNs - info.startMonotonicNs));
    else
        duration = tr("no data yet");
    fact(tr("Duration"), duration);
    // The same facts in one line: where it was recorded, how long, and on which kernel.
    QStringList line;
    line << (m_session->path().isEmpty() ? tr("not saved")
                                         : QFileInfo(m_session->path()).fileName());
    if (!info.host.isEmpty())
        line << host;
    if (!info.kernelRelease.isEmpty())
        line << tr("kernel %1").arg(info.kernelRelease);
    line << duration;
    if (info.startWall.isValid())
        line << tr("started %1")
                    .arg(QLocale().toString(info.startWall.toUTC(), QLocale::ShortFormat) +
                         QStringLiteral(" UTC"));
    m_factsLine->setText(line.join(QStringLiteral(" · ")));
    m_factsLine->setToolTip(m_session->path().isEmpty() ? line.join(QLatin1Char('\n'))
                                                        : m_session->path());
    for (EventType t : SessionModel::eventTypes()) {
        if (!m_session->showsType(t))
            continue;
        fact(tr("%1 events").arg(SessionModel::typeName(t)), QLocale().toString(store.count(t)));
    }
    fact(tr("Histogram snapshots"), QLocale().toString(m_session->data().histograms.size()));
    fact(tr("Memory for events"), QLocale().formattedDataSize(store.memoryBytes()));

    // Stats are cumulative: the latest sample of each probe is its total.
    QHash<QString, ProbeStats> last;
    for (const ProbeStats &s : m_session->data().stats) {
        auto it = last.find(s.probeId);
        if (it == last.end() || s.timeNs >= it->timeNs)
            last.insert(s.probeId, s);
    }
    QStringList ids;
    for (const ProbeConfig &p : info.probes)
        ids << p.id;
    for (auto it = last.cbegin(); it != last.cend(); ++it) {
        if (!ids.contains(it.key()))
            ids << it.key();
    }
    for (const QString &id : std::as_const(ids)) {
        ProbeConfig config;
        for (const ProbeConfig &p : info.probes) {
            if (p.id == id)
                config = p;
        }
        const bool hasStats = last.contains(id);
        const ProbeStats s = last.value(id);
        auto *item = new QTreeWidgetItem(m_probes);
        item->setText(0, id);
        // The lane's colour; probes without events keep the names aligned with an empty one.
        const QColor color = colors::probe(id, palette());
        item->setIcon(0, colors::swatch(color.isValid() ? color : QColor(Qt::transparent)));
        // The kernel's count comes with each stats sample (once a second), the events with
        // every frame: while recording, the session already holds events the last sample has
        // not counted yet. Everything the session holds was seen, so the column never says less
        // than the facts above (35,075 there and 33,399 here read as a contradiction).
        qsizetype held = 0;
        for (EventType t : SessionModel::eventTypes()) {
            if (id == QLatin1String(probeIdOf(t)))
                held += store.count(t);
        }
        const quint64 seen = std::max(s.eventsSeen, quint64(held));
        item->setText(SeenColumn, hasStats || held > 0 ? QLocale().toString(seen) : tr("n/a"));
        if (hasStats && seen > s.eventsSeen)
            item->setToolTip(SeenColumn,
                             tr("The events this session holds. The kernel's own count, %1 at its "
                                "last sample, is taken once a second and catches up.")
                                 .arg(QLocale().toString(s.eventsSeen)));
        auto count = [&](int column, quint64 n, const QString &why) {
            item->setText(column, hasStats ? QLocale().toString(n) : tr("n/a"));
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
            if (hasStats && n > 0) {
                QFont bold = item->font(column);
                bold.setBold(true);
                item->setFont(column, bold);
                item->setToolTip(column, why);
            }
        };
        count(LostColumn, s.eventsLost, lostExplanation());
        count(UnseenColumn, s.eventsUnseen, unseenExplanation());
        count(UnfinishedColumn, s.unfinished, unfinishedExplanation());
        item->setText(AttachColumn, config.attachPath);
        // As the command line's --probe spec writes them: what differs from the defaults.
        const QString options = ProbeCatalog::spec(id, config.options);
        item->setText(OptionsColumn, options.isEmpty() ? tr("defaults") : options);
        item->setToolTip(OptionsColumn, ProbeCatalog::spec(id, config.options, true)
                                            .replace(QLatin1Char(','), QLatin1Char('\n')));
        item->setTextAlignment(SeenColumn, Qt::AlignRight | Qt::AlignVCenter);
    }
}

QString SummaryPanel::lostExplanation()
{
    return OverviewProbeModel::lostExplanation();
}

QString SummaryPanel::unseenExplanation()
{
    return OverviewProbeModel::unseenExplanation();
}

QString SummaryPanel::unfinishedExplanation()
{
    return OverviewProbeModel::unfinishedExplanation();
}

} // namespace bpflens
