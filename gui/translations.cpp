#include "gui/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace bpflens {

bool installTranslations(const QLocale &locale)
{
    // Owned by the application so they live as long as every string they translate.
    static QTranslator *app = nullptr;
    static QTranslator *qt = nullptr;
    for (QTranslator **t : {&app, &qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    app = new QTranslator(QCoreApplication::instance());
    const bool found =
        app->load(locale, QStringLiteral("bpflens"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    // A language without a file of its own (C, POSIX, French) reads the English texts, and they
    // need English plurals too: "1 event", not the source's "1 event(s)". bpflens_en holds only
    // those.
    if (found || app->load(QStringLiteral("bpflens_en"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(app);
    return found;
}

} // namespace bpflens
