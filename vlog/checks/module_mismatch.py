"""`vlog/module-mismatch`: the log was written with another module (or version) than the one given.

Judging a log against another module's maps and pieces gives wrong location names and wrong
dice formats; a different name is an ERROR, a different version or missing extensions a WARNING.
"""
from __future__ import annotations

from vlog.findings import Basis, Finding, Severity
from vlog.vassal.commands import Ext

CHECK_ID = "vlog/module-mismatch"
RULE = "A log is judged against the module (and version) it was written with"
TITLE = "module mismatch"


def check(log: object, module: object) -> list[Finding]:
    """Compare the log's moduledata (name, version) and EXT entries with `module`."""
    log_name = getattr(log, "module_name", None)
    log_version = getattr(log, "module_version", None)
    mod_name = getattr(module, "name", None)
    mod_version = getattr(module, "version", None)
    evidence = {"log_module": log_name, "log_version": log_version,
                "module": mod_name, "module_version": mod_version}
    findings: list[Finding] = []
    if log_name is not None and mod_name is not None and log_name != mod_name:
        findings.append(Finding(
            check=CHECK_ID, rule=RULE, severity=Severity.ERROR, basis=Basis.PROVEN, step=None,
            when=None, message=f"The log was written with module {log_name!r}, not {mod_name!r}",
            subjects=(log_name, mod_name), evidence=evidence))
    elif log_version is not None and mod_version is not None and log_version != mod_version:
        findings.append(Finding(
            check=CHECK_ID, rule=RULE, severity=Severity.WARNING, basis=Basis.PROVEN, step=None,
            when=None,
            message=f"The log was written with {log_name or mod_name} version {log_version}, "
                    f"not {mod_version}",
            subjects=tuple(n for n in (log_name or mod_name,) if n), evidence=evidence))
    restore = getattr(log, "restore_commands", None)
    if restore is not None:
        loaded = {getattr(e, "name", None): getattr(e, "version", None)
                  for e in getattr(module, "extensions", ())}
        missing = []
        for cmd in restore():
            if type(cmd) is Ext and cmd.name not in loaded:
                missing.append({"extension": cmd.name, "version": cmd.version})
        if missing:
            findings.append(Finding(
                check=CHECK_ID, rule=RULE, severity=Severity.WARNING, basis=Basis.PROVEN,
                step=None, when=None,
                message=f"{len(missing)} extension(s) loaded when the log was written are not "
                        f"loaded with the module given",
                subjects=tuple(m["extension"] for m in missing),
                evidence={**evidence, "missing_extensions": missing}))
    return findings
