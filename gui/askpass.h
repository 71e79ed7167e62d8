#pragma once

#include <QString>

#include <optional>

class QTextStream;
class QWidget;

namespace bpflens {

// Record on Host runs ssh with SSH_ASKPASS set to this executable and this variable set to 1:
// ssh then calls `bpflens PROMPT` for a password or a host key question, and main() answers
// through runAskpass() instead of opening the window. `bpflens --askpass PROMPT` does the same.
inline constexpr char AskpassVariable[] = "BPFLENS_ASKPASS";

// Whether ssh asks a yes/no question (an unknown host key's "Are you sure you want to continue
// connecting (yes/no/[fingerprint])?") rather than for a secret.
bool isAskpassConfirmation(const QString &prompt);

// Asks prompt in a dialog: a question with Yes and No (No the default) for a confirmation, a
// password field otherwise. The answer as ssh reads it ("yes", "no", the password); nothing
// when cancelled.
std::optional<QString> askpassAnswer(const QString &prompt, QWidget *parent = nullptr);

// The askpass mode: the answer and a newline on out, 0; 1 when cancelled (ssh then gives up).
int runAskpass(const QString &prompt, QTextStream &out);

} // namespace bpflens
