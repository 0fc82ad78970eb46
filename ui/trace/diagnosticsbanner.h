// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

namespace ks {

struct LoadedTrace;
class SelectionController;

/*!
 * The yellow strip above a trace whose numbers are less than exact: cut off, with health
 * warnings (LoadedTrace::findings(): load warnings among them), or without the sequence numbers
 * pairing needs. Health… opens the HealthPanel.
 */
class DiagnosticsBanner : public QFrame {
    Q_OBJECT
public:
    //! The banner for the trace \a selection shows, or null when there is nothing to say.
    static DiagnosticsBanner *create(SelectionController *selection, QWidget *parent);
    //! The loader's and linker's diagnostics in a dialog over \a parent.
    static void showDiagnostics(const LoadedTrace &trace, QWidget *parent);

    //! Warnings with where each came from, as text (the dialog's details).
    static QString report(const LoadedTrace &trace);
    /*!
     * The same as HTML lists for the dialog: counted warnings first, each with a one-line
     * description, then the informational counters apart.
     */
    static QString summary(const LoadedTrace &trace);

private:
    DiagnosticsBanner(SelectionController *selection, const QString &text, QWidget *parent);
    void showHealth();

    SelectionController *m_selection;
};

} // namespace ks
