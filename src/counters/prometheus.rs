//! The counts in the Prometheus text exposition format (version 0.0.4), the text every
//! common monitoring system scrapes or reads from a file: a fleet of agent workers, each
//! embedding toolgate, is added up by the system already watching them.
//!
//! Every figure is a counter (a `_total` that only grows while the process lives), one
//! family per question a dashboard asks: what became of the calls, why the gate refused,
//! whether retries help, and the same per tool. Labels are the stable labels of the
//! command line (`outcome="tool_failed"`, `kind="schema_violation"`) and the registered
//! tool names, escaped as the format says.

use super::{Counts, ToolCounts};
use crate::rejection::RejectionKind;
use std::fmt::Write;

impl Counts {
    /// The counts as Prometheus text, ready to serve on a `/metrics` endpoint or to write
    /// where a node exporter's text-file collector reads (families `toolgate_calls_total`,
    /// `toolgate_rejections_total`, `toolgate_retries_asked_total`,
    /// `toolgate_retries_succeeded_total`, `toolgate_tool_calls_total`,
    /// `toolgate_tool_rejections_total`).
    ///
    /// ```
    /// use toolgate::{Counters, Gate, Outcome};
    ///
    /// let gate = Gate::from_tools_json(r#"[{"name": "get_order",
    ///     "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}}}]"#)?;
    /// let counters = Counters::new();
    /// let error = gate.check_call(r#"{"name":"get_order","arguments":{"id":7}}"#).unwrap_err();
    /// counters.record(&Outcome::Rejected { id: None, error, first_rejection: None });
    /// let text = counters.snapshot().prometheus();
    /// assert!(text.contains("# TYPE toolgate_calls_total counter\n"));
    /// assert!(text.contains("toolgate_calls_total{outcome=\"rejected\"} 1\n"));
    /// assert!(text.contains(
    ///     "toolgate_tool_rejections_total{tool=\"get_order\",kind=\"schema_violation\"} 1\n"
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prometheus(&self) -> String {
        let mut out = String::new();
        family(
            &mut out,
            "toolgate_calls_total",
            "Tool calls by final outcome; a retried call counts once.",
        );
        for (outcome, count) in outcomes(self.dispatched, self.tool_failed, self.rejected_calls) {
            sample(
                &mut out,
                "toolgate_calls_total",
                &[("outcome", outcome)],
                count,
            );
        }
        family(
            &mut out,
            "toolgate_rejections_total",
            "Rejections the gate made, by kind, including those a retry fixed.",
        );
        for kind in RejectionKind::ALL {
            let count = self.rejected_by(kind);
            sample(
                &mut out,
                "toolgate_rejections_total",
                &[("kind", kind.label())],
                count,
            );
        }
        family(
            &mut out,
            "toolgate_retries_asked_total",
            "Calls for which the model was asked once for a corrected call.",
        );
        sample(
            &mut out,
            "toolgate_retries_asked_total",
            &[],
            self.retries_asked,
        );
        family(
            &mut out,
            "toolgate_retries_succeeded_total",
            "Corrected calls that passed the gate.",
        );
        let succeeded = self.retries_succeeded;
        sample(&mut out, "toolgate_retries_succeeded_total", &[], succeeded);
        self.per_tool(&mut out);
        out
    }

    /// The two per-tool families, each tool's samples in name order.
    fn per_tool(&self, out: &mut String) {
        family(
            out,
            "toolgate_tool_calls_total",
            "Calls to a registered tool by final outcome.",
        );
        for (tool, counts) in &self.tools {
            let ToolCounts {
                dispatched,
                tool_failed,
                rejected_calls,
                ..
            } = *counts;
            for (outcome, count) in outcomes(dispatched, tool_failed, rejected_calls) {
                let labels = [("tool", tool.as_str()), ("outcome", outcome)];
                sample(out, "toolgate_tool_calls_total", &labels, count);
            }
        }
        family(
            out,
            "toolgate_tool_rejections_total",
            "Rejections of a registered tool's calls, by kind.",
        );
        for (tool, counts) in &self.tools {
            for kind in [
                RejectionKind::ArgumentsNotObject,
                RejectionKind::SchemaViolation,
            ] {
                let count = counts.rejected.get(kind as usize).copied().unwrap_or(0);
                let labels = [("tool", tool.as_str()), ("kind", kind.label())];
                sample(out, "toolgate_tool_rejections_total", &labels, count);
            }
        }
    }
}

/// The outcome labels with their counts.
fn outcomes(dispatched: u64, tool_failed: u64, rejected: u64) -> [(&'static str, u64); 3] {
    [
        ("dispatched", dispatched),
        ("tool_failed", tool_failed),
        ("rejected", rejected),
    ]
}

/// A family's `# HELP` and `# TYPE` lines.
fn family(out: &mut String, name: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
}

/// One sample line: `name{label="value",…} count`.
fn sample(out: &mut String, name: &str, labels: &[(&str, &str)], count: u64) {
    out.push_str(name);
    for (index, (label, value)) in labels.iter().enumerate() {
        out.push(if index == 0 { '{' } else { ',' });
        out.push_str(label);
        out.push_str("=\"");
        escape_label(out, value);
        out.push('"');
    }
    if !labels.is_empty() {
        out.push('}');
    }
    let _ = writeln!(out, " {count}");
}

/// A label value as the format escapes it: backslash, double quote and line feed.
fn escape_label(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}
