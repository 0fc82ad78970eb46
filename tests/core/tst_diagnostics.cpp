// SPDX-License-Identifier: MIT
// The typed diagnostics table (core/base/diagnostics.h): names, severities, counting, the report.
#include "base/diagnostics.h"

#include <QTest>

using namespace ks;

class TestDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void everyCounterHasANameAndADescription()
    {
        for (const DiagnosticInfo &d : kDiagnostics) {
            QVERIFY(!d.name.empty());
            QVERIFY(d.description.size() > 10);
            QCOMPARE(diagnosticNamed(d.name), std::optional<Diag>(d.id));
        }
        QCOMPARE(diagnosticNamed("no_such_counter"), std::optional<Diag>());
    }

    void countsWarningsAndInformationApart()
    {
        Diagnostics d;
        d.add(Diag::Truncated, 120, "cut");
        d.addCount(Diag::FlowEndWithoutStart, 7);
        d.add(Diag::NegativeDur, 5, "a");
        d.add(Diag::NegativeDur, 9, "b");
        QCOMPARE(d.count(Diag::NegativeDur), uint64_t(2));
        QCOMPARE(d.count("negative_dur"), uint64_t(2));
        QCOMPARE(d.count("no_such_counter"), uint64_t(0));
        QCOMPARE(d.total(), uint64_t(10));
        QCOMPARE(d.warnings(), uint64_t(3)); // the lone flow ends are informational
        const std::map<std::string, uint64_t> expected {
            {"flow_end_without_start", 7}, {"negative_dur", 2}, {"truncated", 1}};
        QCOMPARE(d.counts(), expected);

        // Warnings first, each with its one-line description and its examples; information last.
        const QString report = QString::fromStdString(d.report());
        QVERIFY(report.indexOf(QStringLiteral("negative_dur: 2"))
            < report.indexOf(QStringLiteral("flow_end_without_start: 7")));
        QVERIFY(report.indexOf(QStringLiteral("truncated: 1"))
            < report.indexOf(QStringLiteral("flow_end_without_start")));
        QVERIFY(report.contains(QStringLiteral("    byte 9: b")));
        QVERIFY(report.contains(QString::fromUtf8(info(Diag::Truncated).description.data(),
            qsizetype(info(Diag::Truncated).description.size()))));
        QVERIFY(report.contains(QStringLiteral("(informational)")));
    }

    void mergeKeepsAtMostFiveExamplesPerCounter()
    {
        Diagnostics a, b;
        for (int i = 0; i < 4; ++i) {
            a.add(Diag::MissingTs, uint64_t(i), "a");
            b.add(Diag::MissingTs, uint64_t(100 + i), "b");
        }
        a.merge(b);
        QCOMPARE(a.count(Diag::MissingTs), uint64_t(8));
        QCOMPARE(int(a.examples().size()), Diagnostics::kExamplesPerCounter);
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
