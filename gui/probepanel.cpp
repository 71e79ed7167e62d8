#include "gui/probepanel.h"

#include "client/binarytarget.h"
#include "client/probetargets.h"
#include "client/usdtnotes.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStringListModel>
#include <QVBoxLayout>

namespace bpflens {

namespace {

QString settingsKey(const QString &probeId, const char *what)
{
    return QStringLiteral("probePanel/%1/%2").arg(probeId, QLatin1String(what));
}

// Options that name a tracepoint: the helper's list of tracepoints completes them.
bool isTracepointOption(const ProbeOption &o)
{
    return o.namesTracepoint && o.type == ProbeOption::Type::String;
}

} // namespace

ProbePanel::ProbePanel(QWidget *parent)
    : ProbePanel(ProbeCatalog::probes(), parent)
{
}

ProbePanel::ProbePanel(const QList<ProbeInfo> &probes, QWidget *parent)
    : QWidget(parent)
    , m_probes(probes)
    , m_tracepoints(new QStringListModel(this))
{
    setAccessibleName(tr("Probes"));
    build();
    load();
}

QSize ProbePanel::sizeHint() const
{
    const QSize hint = QWidget::sizeHint();
    return minimumWidth() > 0 ? QSize(minimumWidth(), hint.height()) : hint;
}

QString ProbePanel::groupTitle(ProbeGroup group)
{
    switch (group) {
    case ProbeGroup::Processes:
        return tr("Processes");
    case ProbeGroup::Files:
        return tr("Files");
    case ProbeGroup::BlockIo:
        return tr("Block I/O");
    case ProbeGroup::IoStack:
        return tr("I/O stack");
    case ProbeGroup::Scheduler:
        return tr("Scheduler");
    case ProbeGroup::Network:
        return tr("Network");
    case ProbeGroup::Memory:
        return tr("Memory");
    case ProbeGroup::Custom:
        return tr("Custom");
    case ProbeGroup::Cpu:
        return tr("CPU");
    }
    return {};
}

void ProbePanel::build()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    m_scroll = scroll;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // A scroll bar that came and went with the ticked probes' options narrowed the panel, and
    // every wrapped description below reflowed: the rows jumped instead of just moving down.
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    auto *content = new QWidget(scroll);
    m_layout = new QVBoxLayout(content);
    scroll->setWidget(content);
    // Above the scrolled probes, not among them: whose kernel the availability is (this
    // computer's or a host's) stays in sight wherever the list is scrolled to.
    m_kernel = new QLabel(tr("Kernel: not known until the helper answers"), this);
    m_kernel->setObjectName(QStringLiteral("kernelRelease"));
    m_kernel->setForegroundRole(QPalette::PlaceholderText);
    m_kernel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kernel->setWordWrap(true);
    const QMargins margins = m_layout->contentsMargins();
    m_kernel->setContentsMargins(margins.left(), margins.top(), margins.right(), 0);
    outer->addWidget(m_kernel);
    outer->addWidget(scroll);

    static const ProbeGroup order[] = {
        ProbeGroup::Cpu,     ProbeGroup::Processes, ProbeGroup::Files,
        ProbeGroup::BlockIo, ProbeGroup::IoStack,   ProbeGroup::Scheduler,
        ProbeGroup::Network, ProbeGroup::Memory,    ProbeGroup::Custom};
    m_rows.reserve(m_probes.size());
    for (ProbeGroup group : order) {
        bool header = false;
        for (const ProbeInfo &info : std::as_const(m_probes)) {
            if (info.group != group)
                continue;
            if (!header) {
                auto *title = new QLabel(groupTitle(group), content);
                QFont f = title->font();
                f.setBold(true);
                title->setFont(f);
                title->setContentsMargins(0, 8, 0, 0);
                m_layout->addWidget(title);
                header = true;
            }
            Row row;
            row.info = &info;
            auto *line = new QHBoxLayout;
            row.check = new QCheckBox(ProbeCatalog::translated(info.title), content);
            row.check->setObjectName(QStringLiteral("probe:%1").arg(info.id));
            row.check->setAccessibleName(ProbeCatalog::translated(info.title));
            row.check->setAccessibleDescription(ProbeCatalog::translated(info.description));
            row.check->setToolTip(ProbeCatalog::translated(info.description));
            row.status = new QLabel(content);
            row.status->setObjectName(QStringLiteral("status:%1").arg(info.id));
            // "teilweise verfügbar" beside "Langsame Dateioperationen" is wider than the dock:
            // it takes two lines instead of pushing the row out of sight.
            row.status->setWordWrap(true);
            row.status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            line->addWidget(row.check, 1);
            line->addWidget(row.status);
            m_layout->addLayout(line);

            auto *description = new QLabel(ProbeCatalog::translated(info.description), content);
            description->setWordWrap(true);
            description->setForegroundRole(QPalette::PlaceholderText);
            description->setContentsMargins(24, 0, 0, 0);
            m_layout->addWidget(description);

            row.options = new QWidget(content);
            auto *form = new QFormLayout(row.options);
            form->setContentsMargins(24, 0, 0, 4);
            // A long label (German's "Fehlgeschlagene execs einbeziehen") puts its editor on the
            // next line instead of widening the panel past the dock, which cut the editors and
            // the probes' status off at the right.
            form->setRowWrapPolicy(QFormLayout::WrapLongRows);
            for (const ProbeOption &o : info.options) {
                if (o.internal)
                    continue;
                QWidget *editor = createEditor(row, o);
                auto *label = new QLabel(ProbeCatalog::translated(o.title), row.options);
                label->setBuddy(editor);
                form->addRow(label, editor);
                row.editors.insert(o.name, editor);
            }
            m_layout->addWidget(row.options);

            row.error = new QLabel(content);
            row.error->setObjectName(QStringLiteral("error:%1").arg(info.id));
            row.error->setWordWrap(true);
            row.error->setContentsMargins(24, 0, 0, 4);
            row.error->setStyleSheet(QStringLiteral("color: #d0312d;"));
            row.error->hide();
            m_layout->addWidget(row.error);

            const QString id = info.id;
            connect(row.check, &QCheckBox::toggled, this, [this, id] { onChanged(id); });
            m_rows.append(row);
        }
    }
    m_layout->addStretch(1);
    setAvailability({});
}

QWidget *ProbePanel::createEditor(Row &row, const ProbeOption &o)
{
    const QString id = row.info->id;
    const QString name = QStringLiteral("option:%1:%2").arg(id, o.name);
    QWidget *editor = nullptr;
    switch (o.type) {
    case ProbeOption::Type::Bool: {
        auto *box = new QCheckBox(row.options);
        box->setChecked(o.defaultValue.toBool());
        connect(box, &QCheckBox::toggled, this, [this, id] { onChanged(id); });
        editor = box;
        break;
    }
    case ProbeOption::Type::Int: {
        // A double spin box: the ranges (user IDs, microsecond thresholds) exceed int.
        auto *spin = new QDoubleSpinBox(row.options);
        spin->setDecimals(0);
        spin->setRange(double(o.minimum), double(o.maximum));
        spin->setValue(double(o.defaultValue.toLongLong()));
        const bool meansAny = o.name == QLatin1String("pid") || o.name == QLatin1String("tid") ||
                              o.name == QLatin1String("uid");
        if (meansAny && o.defaultValue.toLongLong() == o.minimum)
            spin->setSpecialValueText(tr("any"));
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, id] { onChanged(id); });
        editor = spin;
        break;
    }
    case ProbeOption::Type::String: {
        auto *edit = new QLineEdit(row.options);
        edit->setText(o.defaultValue.toString());
        edit->setClearButtonEnabled(true);
        if (isTracepointOption(o)) {
            auto *completer = new QCompleter(m_tracepoints, edit);
            completer->setCaseSensitivity(Qt::CaseInsensitive);
            completer->setFilterMode(Qt::MatchContains);
            edit->setCompleter(completer);
        }
        connect(edit, &QLineEdit::textChanged, this, [this, id] { onChanged(id); });
        editor = edit;
        break;
    }
    case ProbeOption::Type::Choice: {
        auto *combo = new QComboBox(row.options);
        for (const QString &c : o.choices)
            combo->addItem(c, c);
        combo->setCurrentIndex(std::max(0, combo->findData(o.defaultValue.toString())));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, id] { onChanged(id); });
        editor = combo;
        break;
    }
    }
    if (qobject_cast<QAbstractSpinBox *>(editor) || qobject_cast<QComboBox *>(editor)) {
        // Not focused by the wheel (Qt::WheelFocus), and its wheel goes to the panel unless
        // the user clicked or tabbed into it.
        editor->setFocusPolicy(Qt::StrongFocus);
        editor->installEventFilter(this);
    }
    editor->setObjectName(name);
    editor->setAccessibleName(tr("%1: %2").arg(ProbeCatalog::translated(row.info->title),
                                               ProbeCatalog::translated(o.title)));
    editor->setAccessibleDescription(ProbeCatalog::translated(o.description));
    editor->setToolTip(ProbeCatalog::translated(o.description));
    return editor;
}

bool ProbePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel && m_scroll) {
        auto *editor = qobject_cast<QWidget *>(watched);
        if (editor && !editor->hasFocus()) {
            QCoreApplication::sendEvent(m_scroll->verticalScrollBar(), event);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ProbePanel::setEditorValue(QWidget *editor, const ProbeOption &o, const QVariant &value)
{
    switch (o.type) {
    case ProbeOption::Type::Bool:
        static_cast<QCheckBox *>(editor)->setChecked(value.toBool());
        break;
    case ProbeOption::Type::Int:
        static_cast<QDoubleSpinBox *>(editor)->setValue(double(value.toLongLong()));
        break;
    case ProbeOption::Type::String:
        static_cast<QLineEdit *>(editor)->setText(value.toString());
        break;
    case ProbeOption::Type::Choice: {
        auto *combo = static_cast<QComboBox *>(editor);
        const int i = combo->findData(value.toString());
        if (i >= 0)
            combo->setCurrentIndex(i);
        break;
    }
    }
}

QVariantMap ProbePanel::rawOptions(const Row &row) const
{
    QVariantMap map;
    for (const ProbeOption &o : row.info->options) {
        if (o.internal)
            continue;
        QWidget *editor = row.editors.value(o.name);
        switch (o.type) {
        case ProbeOption::Type::Bool:
            map.insert(o.name, static_cast<QCheckBox *>(editor)->isChecked());
            break;
        case ProbeOption::Type::Int:
            map.insert(o.name, qint64(static_cast<QDoubleSpinBox *>(editor)->value()));
            break;
        case ProbeOption::Type::String:
            map.insert(o.name, static_cast<QLineEdit *>(editor)->text());
            break;
        case ProbeOption::Type::Choice:
            map.insert(o.name, static_cast<QComboBox *>(editor)->currentData().toString());
            break;
        }
    }
    return map;
}

bool ProbePanel::validateRow(const Row &row, QVariantMap *normalized, QString *error) const
{
    return ProbeCatalog::validate(row.info->id, rawOptions(row), normalized, error);
}

void ProbePanel::setAvailability(const QHash<QString, ProbeAvailability> &availability)
{
    for (Row &row : m_rows) {
        const auto it = availability.constFind(row.info->id);
        QString tip;
        row.unavailableReason.clear();
        if (it == availability.cend()) {
            row.available = true; // the helper decides at start; do not block the user
            row.status->setText(tr("unknown"));
            tip = tr("Availability unknown until the helper answers.");
        } else if (it->available) {
            row.available = true;
            // A reason beside "available" is what this kernel degrades (the helper's
            // ListProbes: "why not / what is degraded"): iostack layers without a hook.
            row.status->setText(it->reason.isEmpty() ? tr("available") : tr("partly available"));
            tip = it->attachPath.isEmpty() ? tr("Available on this kernel.")
                                           : tr("Attaches to %1").arg(it->attachPath);
            if (!it->reason.isEmpty())
                tip += QLatin1Char('\n') + tr("Limited on this kernel: %1").arg(it->reason);
        } else {
            row.available = false;
            row.unavailableReason = it->reason.isEmpty() ? tr("no reason given") : it->reason;
            row.status->setText(tr("not available"));
            tip = tr("Not available on this kernel: %1").arg(row.unavailableReason);
        }
        row.status->setToolTip(tip);
        row.status->setAccessibleName(tr("%1: %2").arg(row.check->text(), row.status->text()));
        row.status->setAccessibleDescription(tip);
        row.check->setToolTip(ProbeCatalog::translated(row.info->description) + QLatin1Char('\n') +
                              tip);
        row.check->setEnabled(row.available);
        updateRow(row);
    }
}

void ProbePanel::setTracepointNames(const QStringList &names)
{
    m_tracepoints->setStringList(names);
}

void ProbePanel::setKernelRelease(const QString &release, const QString &host)
{
    m_kernelHost = host;
    if (host.isEmpty()) {
        m_kernel->setText(tr("Kernel %1").arg(release));
        m_kernel->setToolTip(tr("The availability below is this kernel's, as the helper sees it."));
        return;
    }
    // A long host name wraps instead of widening the panel.
    m_kernel->setText(tr("Remote kernel %1 on %2").arg(release, host));
    m_kernel->setToolTip(tr("The availability below is the kernel of %1, as bpflens-cli there "
                            "sees it, not this computer's.")
                             .arg(host));
}

void ProbePanel::clearAvailability()
{
    m_kernelHost.clear();
    m_kernel->setText(tr("Kernel: not known until the helper answers"));
    m_kernel->setToolTip(QString());
    setAvailability({});
}

void ProbePanel::showProbeError(const QString &probeId, const QString &message)
{
    for (Row &row : m_rows) {
        if (row.info->id == probeId) {
            row.error->setText(tr("Refused: %1").arg(message));
            row.error->show();
        }
    }
}

QString ProbePanel::userFileProblem(const QString &probeId, const QVariantMap &options) const
{
    if (!probeTakesUserFile(probeId, options))
        return QString();
    const ProbeInfo *info = ProbeCatalog::find(probeId);
    const ProbeTarget kind = info ? info->target : ProbeTarget::None;
    if (kind != ProbeTarget::BinaryFunction && kind != ProbeTarget::Usdt)
        return hookProblem(probeId, options);
    // Resolved as the recording will resolve it, as this user: what cannot be probed says so
    // while the user types. Remembered per target, since a library name runs ldconfig.
    const QString target = options.value(QStringLiteral("target")).toString().trimmed();
    const qint64 pid = options.value(QStringLiteral("pid")).toLongLong();
    const QString cacheKey =
        probeId + QLatin1Char('\n') + target + QLatin1Char('\n') + QString::number(pid);
    auto it = m_targetProblems.constFind(cacheKey);
    if (it != m_targetProblems.cend())
        return *it;
    QString why;
    if (kind == ProbeTarget::Usdt) {
        UsdtTarget resolved;
        if (target.isEmpty())
            why = tr("no USDT probe given (BINARY:PROVIDER:NAME)");
        else if (resolveUsdtTarget(target, pid, &resolved, &why))
            why.clear();
    } else {
        BinaryTarget resolved;
        if (resolveBinaryTarget(target, pid, &resolved, &why))
            why.clear();
    }
    if (m_targetProblems.size() > 64)
        m_targetProblems.clear();
    m_targetProblems.insert(cacheKey, why);
    return why;
}

QString ProbePanel::hookProblem(const QString &probeId, const QVariantMap &options) const
{
    // The probe's uprobe and USDT hooks (tppair's, tpcount's), resolved as the recording will
    // resolve them.
    QStringList hooks{probeId, options.value(QStringLiteral("pid")).toString()};
    if (const ProbeInfo *info = ProbeCatalog::find(probeId)) {
        for (const ProbeHookOption &hook : info->hooks)
            hooks << options.value(hook.option).toString();
    }
    const QString cacheKey = hooks.join(QLatin1Char('\n'));
    auto it = m_targetProblems.constFind(cacheKey);
    if (it != m_targetProblems.cend())
        return *it;
    QList<ProbeConfig> probe{{probeId, options, {}}};
    QString why;
    if (resolveProbeTargets(probe, &why))
        why.clear();
    if (m_targetProblems.size() > 64)
        m_targetProblems.clear();
    m_targetProblems.insert(cacheKey, why);
    return why;
}

void ProbePanel::updateRow(Row &row)
{
    const bool active = row.available && row.check->isChecked();
    // Red for what stops a probe the user chose; grey for a probe the kernel lacks and nobody
    // asked for.
    row.error->setStyleSheet(
        !row.available && !row.check->isChecked() ? QString() : QStringLiteral("color: #d0312d;"));
    row.error->setEnabled(row.available || row.check->isChecked());
    row.options->setVisible(active);
    QString error;
    QVariantMap normalized;
    if (active && !validateRow(row, &normalized, &error)) {
        row.error->setText(tr("Invalid option: %1").arg(error));
        row.error->show();
    } else if (active && !userFileProblem(row.info->id, normalized).isEmpty()) {
        row.error->setText(tr("Cannot probe: %1").arg(userFileProblem(row.info->id, normalized)));
        row.error->show();
    } else if (!row.available) {
        // Why the kernel cannot run it, under the probe, not only in a tool tip: "not
        // available" alone leaves the user guessing (no uprobes, no BTF, a missing hook).
        row.error->setText(tr("Not available on this kernel: %1").arg(row.unavailableReason));
        row.error->show();
    } else {
        row.error->clear();
        row.error->hide();
    }
}

void ProbePanel::onChanged(const QString &probeId)
{
    if (m_loading)
        return;
    for (Row &row : m_rows) {
        if (row.info->id == probeId) {
            updateRow(row);
            save(row);
        }
    }
    Q_EMIT changed();
}

QList<ProbeConfig> ProbePanel::configs(QString *error) const
{
    QList<ProbeConfig> result;
    for (const Row &row : m_rows) {
        if (!row.available || !row.check->isChecked())
            continue;
        ProbeConfig config;
        config.id = row.info->id;
        QString why;
        if (!validateRow(row, &config.options, &why)) {
            if (error)
                *error = why;
            return {};
        }
        result.append(config);
    }
    if (result.isEmpty() && error) {
        const QString skipped = skippedText();
        if (skipped.isEmpty())
            *error = tr("Select at least one probe to record.");
        else if (m_kernelHost.isEmpty())
            *error = tr("None of the selected probes can run on this kernel: %1.").arg(skipped);
        else
            *error = tr("None of the selected probes can run on the kernel of %1: %2.")
                         .arg(m_kernelHost, skipped);
    }
    return result;
}

QList<ProbePanel::Skipped> ProbePanel::skippedProbes() const
{
    QList<Skipped> skipped;
    for (const Row &row : m_rows) {
        if (!row.available && row.check->isChecked())
            skipped.append({row.info->id, row.check->text(), row.unavailableReason});
    }
    return skipped;
}

QString ProbePanel::skippedText() const
{
    QStringList parts;
    for (const Skipped &s : skippedProbes())
        parts << tr("%1 (%2)").arg(s.title, s.reason);
    return parts.join(QStringLiteral("; "));
}

void ProbePanel::revealSkipped()
{
    for (const Row &row : std::as_const(m_rows)) {
        if (!row.available && row.check->isChecked()) {
            m_scroll->ensureWidgetVisible(row.check);
            return;
        }
    }
}

QStringList ProbePanel::selectedProbes() const
{
    QStringList ids;
    for (const Row &row : m_rows) {
        if (row.check->isChecked())
            ids << row.info->id;
    }
    return ids;
}

void ProbePanel::setProbeSelected(const QString &id, bool selected)
{
    if (QCheckBox *box = checkBox(id))
        box->setChecked(selected);
}

QCheckBox *ProbePanel::checkBox(const QString &probeId) const
{
    for (const Row &row : m_rows) {
        if (row.info->id == probeId)
            return row.check;
    }
    return nullptr;
}

QWidget *ProbePanel::optionEditor(const QString &probeId, const QString &option) const
{
    for (const Row &row : m_rows) {
        if (row.info->id == probeId)
            return row.editors.value(option);
    }
    return nullptr;
}

QLabel *ProbePanel::statusLabel(const QString &probeId) const
{
    for (const Row &row : m_rows) {
        if (row.info->id == probeId)
            return row.status;
    }
    return nullptr;
}

QLabel *ProbePanel::errorLabel(const QString &probeId) const
{
    for (const Row &row : m_rows) {
        if (row.info->id == probeId)
            return row.error;
    }
    return nullptr;
}

void ProbePanel::load()
{
    QSettings settings;
    m_loading = true;
    for (Row &row : m_rows) {
        const QString id = row.info->id;
        row.check->setChecked(settings.value(settingsKey(id, "enabled"), false).toBool());
        const QVariantMap stored = settings.value(settingsKey(id, "options")).toMap();
        for (const ProbeOption &o : row.info->options) {
            if (o.internal)
                continue;
            // Values a newer or older catalog no longer accepts fall back to the default.
            const auto it = stored.constFind(o.name);
            if (it == stored.cend())
                continue;
            QVariantMap one, normalized;
            one.insert(o.name, *it);
            QString ignored;
            if (ProbeCatalog::find(id) && !ProbeCatalog::validate(id, one, &normalized, &ignored))
                continue;
            setEditorValue(row.editors.value(o.name), o, *it);
        }
    }
    m_loading = false;
    for (Row &row : m_rows)
        updateRow(row);
}

void ProbePanel::save(const Row &row) const
{
    QSettings settings;
    settings.setValue(settingsKey(row.info->id, "enabled"), row.check->isChecked());
    settings.setValue(settingsKey(row.info->id, "options"), rawOptions(row));
}

} // namespace bpflens
