"""A report as a small document (sections of paragraphs, figures, tables, findings), written out as
one self-contained HTML file (figures embedded as data: URIs, inline CSS, no script, no external
reference) and as Markdown that links the PNG files beside it."""
from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass
class Figure:
    name: str       # file stem under figures/
    caption: str
    png: bytes


@dataclass
class Table:
    frame: pd.DataFrame  # already formatted as text
    caption: str = ""
    collapsed: bool = False


@dataclass
class Finding:
    text: str
    flag: bool = False  # a warning a designer should look at


@dataclass
class Section:
    id: str
    title: str
    blocks: list = field(default_factory=list)

    def text(self, value: str) -> None:
        self.blocks.append(("p", value))

    def note(self, value: str) -> None:
        self.blocks.append(("note", value))

    def heading(self, value: str) -> None:
        self.blocks.append(("h3", value))

    def figure(self, figure: Figure) -> None:
        self.blocks.append(("figure", figure))

    def table(self, table: Table) -> None:
        self.blocks.append(("table", table))

    def findings(self, items: list[Finding]) -> None:
        self.blocks.append(("findings", items))


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}
.sub{color:#555;margin-top:0}nav a{margin-right:1em}
figure{margin:1em 0}figure img{max-width:100%;height:auto}figcaption{color:#444;font-size:.9em}
table{border-collapse:collapse;font-size:.85em;margin:.6em 0}th,td{padding:.2em .6em;border-bottom:1px solid #ddd;
text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
caption{caption-side:top;text-align:left;color:#444;padding-bottom:.3em}
.note{color:#555;font-size:.9em}ul.findings li{margin:.35em 0}li.flag{color:#8a3a00}
li.flag::marker{content:"\\26A0  "}details{margin:.6em 0}summary{cursor:pointer;color:#0072B2}
"""


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in table.frame.itertuples(index=False))
    caption = f"<caption>{html.escape(table.caption)}</caption>" if table.caption and not table.collapsed else ""
    out = f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    if table.collapsed:
        return f"<details><summary>{html.escape(table.caption or 'table')}</summary>{out}</details>"
    return out


def to_html(title: str, subtitle: str, sections: list[Section]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", f'<p class="sub">{html.escape(subtitle)}</p>',
             "<nav>" + "".join(f'<a href="#{s.id}">{html.escape(s.title)}</a>' for s in sections) + "</nav>"]
    for section in sections:
        parts.append(f'<section id="{section.id}"><h2>{html.escape(section.title)}</h2>')
        for kind, value in section.blocks:
            if kind == "p":
                parts.append(f"<p>{html.escape(value)}</p>")
            elif kind == "note":
                parts.append(f'<p class="note">{html.escape(value)}</p>')
            elif kind == "h3":
                parts.append(f"<h3>{html.escape(value)}</h3>")
            elif kind == "figure":
                data = base64.b64encode(value.png).decode()
                parts.append(f'<figure><img alt="{html.escape(value.caption)}" src="data:image/png;base64,{data}">'
                             f"<figcaption>{html.escape(value.caption)}</figcaption></figure>")
            elif kind == "table":
                parts.append(_table_html(value))
            elif kind == "findings":
                items = "".join(f'<li class="{"flag" if f.flag else "ok"}">{html.escape(f.text)}</li>' for f in value)
                parts.append(f'<ul class="findings">{items}</ul>')
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _md_cell(value) -> str:
    return str(value).replace("|", "\\|")


def _table_md(table: Table) -> str:
    frame = table.frame
    lines = []
    if table.caption:
        lines.append(f"*{table.caption}*\n")
    lines.append("| " + " | ".join(_md_cell(c) for c in frame.columns) + " |")
    lines.append("|" + "|".join(["---"] * len(frame.columns)) + "|")
    lines.extend("| " + " | ".join(_md_cell(v) for v in row) + " |" for row in frame.itertuples(index=False))
    return "\n".join(lines)


def to_markdown(title: str, subtitle: str, sections: list[Section]) -> str:
    parts = [f"# {title}", "", subtitle, ""]
    for section in sections:
        parts += [f"## {section.title}", ""]
        for kind, value in section.blocks:
            if kind in ("p", "note"):
                parts += [value if kind == "p" else f"*{value}*", ""]
            elif kind == "h3":
                parts += [f"### {value}", ""]
            elif kind == "figure":
                parts += [f"![{value.caption}](figures/{value.name}.png)", "", f"*{value.caption}*", ""]
            elif kind == "table":
                parts += [_table_md(value), ""]
            elif kind == "findings":
                parts += [("- **Warning:** " if f.flag else "- ") + f.text for f in value] + [""]
    return "\n".join(parts)


def write(folder: Path, title: str, subtitle: str, sections: list[Section]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(to_html(title, subtitle, sections))
    (folder / "report.md").write_text(to_markdown(title, subtitle, sections))
