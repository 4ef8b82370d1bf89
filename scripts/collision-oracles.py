#!/usr/bin/env python3
"""Compares `rmodel collisions` with the collision matrices MoveIt's Setup Assistant wrote.

Usage: collision-oracles.py DIR [--rmodel PATH] [--samples N] [--json FILE] [--min-agreement F]
                            [--min-adjacent-equal F]

DIR holds MoveIt configurations as their repositories keep them (moveit_resources, the
ros-industrial robot support repositories...), with their robots' description packages and
meshes. Every configuration with a `.setup_assistant` file (the Setup Assistant's record of the
URDF package and path, and of the SRDF it wrote) is compared: the URDF (xacro expanded) goes to
`rmodel collisions -f json` with DIR's packages, and the SRDF's <disable_collisions> (a
.srdf.xacro expanded by `rmodel xacro`) are the oracle.

Per configuration it prints the links with geometry, whether the Adjacent pairs are equal, and
the agreement: the fraction of the pairs of links (both with geometry for rmodel) that the two
matrices treat alike (both disabled, or both checked). Disabled pairs naming links rmodel
finds no geometry for (a mesh the description no longer ships, a link renamed since) are
counted apart. The figures depend on how far the description moved since the Setup Assistant
ran; see docs/design.md, "Self-collision".

Exit status: 0, or 1 when the overall agreement is below --min-agreement or the share of
configurations with equal Adjacent pairs below --min-adjacent-equal (both default 0: report
only); 77 when DIR has no configuration.
"""
import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def setup_assistant(path):
    """The URDF package and relative path, and the SRDF's relative path, of a .setup_assistant."""
    out, section = {}, None
    for line in open(path, encoding="utf-8"):
        stripped = line.strip()
        if stripped in ("URDF:", "SRDF:", "CONFIG:"):
            section = stripped[:-1]
        elif ":" in stripped and section in ("URDF", "SRDF"):
            key, value = stripped.split(":", 1)
            out[(section, key.strip())] = value.strip().strip("'\"")
    return out


def find_package(root, name):
    """The directory under `root` whose package.xml names `name` (or named `name`)."""
    by_dir = None
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        if "package.xml" in filenames:
            text = open(os.path.join(dirpath, "package.xml"), encoding="utf-8", errors="replace").read()
            start = text.find("<name>")
            if start >= 0 and text[start + 6:text.find("</name>", start)].strip() == name:
                return dirpath
        if os.path.basename(dirpath) == name and by_dir is None:
            by_dir = dirpath
    return by_dir


def pairs_of(srdf_text):
    root = ET.fromstring(srdf_text)
    out = {}
    for e in root.findall("disable_collisions"):
        a, b = e.get("link1", "").strip(), e.get("link2", "").strip()
        out[tuple(sorted((a, b)))] = e.get("reason", "")
    return out


def compare(rmodel, top, config_dir, samples):
    record = setup_assistant(os.path.join(config_dir, ".setup_assistant"))
    package, urdf_rel, srdf_rel = record.get(("URDF", "package")), record.get(("URDF", "relative_path")), \
        record.get(("SRDF", "relative_path"))
    name = os.path.relpath(config_dir, top)
    if not package or not urdf_rel or not srdf_rel:
        return {"config": name, "skipped": "the .setup_assistant names no URDF or SRDF"}
    package_dir = find_package(top, package)
    srdf = os.path.join(config_dir, srdf_rel)
    if not package_dir or not os.path.isfile(os.path.join(package_dir, urdf_rel)) or not os.path.isfile(srdf):
        return {"config": name, "skipped": f"URDF {package}/{urdf_rel} or SRDF {srdf_rel} not found"}
    urdf = os.path.join(package_dir, urdf_rel)
    # The repository holding the configuration first: a package of that name there wins.
    repo = os.path.join(top, os.path.relpath(config_dir, top).split(os.sep)[0])
    paths = ["--package-path", repo, "--package-path", top]
    if srdf.endswith(".xacro"):
        expanded = subprocess.run([rmodel, "xacro", srdf] + paths, capture_output=True, text=True)
        if expanded.returncode != 0:
            return {"config": name, "skipped": "rmodel xacro: " + expanded.stderr.strip()}
        srdf_text = expanded.stdout
    else:
        srdf_text = open(srdf, encoding="utf-8").read()
    declared = pairs_of(srdf_text)
    run = subprocess.run([rmodel, "collisions", "-u", urdf, "-f", "json", "--samples", str(samples)] + paths,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return {"config": name, "skipped": "rmodel collisions: " + run.stderr.strip()}
    doc = json.loads(run.stdout)
    ours = {tuple(sorted((d["link1"], d["link2"]))): d["reason"] for d in doc["disabled"]}
    links = set(doc["link_names"])  # with geometry; the SRDF's pairs naming others are apart
    n = doc["links"]
    known = {p: r for p, r in declared.items() if p[0] in links and p[1] in links}
    unknown = len(declared) - len(known)
    disagree_theirs = sorted(p for p in known if p not in ours)
    disagree_ours = sorted(p for p in ours if p not in known)
    adjacent_theirs = {p for p, r in known.items() if r == "Adjacent"}
    adjacent_ours = {p for p, r in ours.items() if r == "Adjacent"}
    pairs = n * (n - 1) // 2
    same_reason = sum(1 for p in known if p in ours and ours[p] == known[p])
    return {
        "config": name, "links": n, "pairs": pairs, "declared": len(declared), "computed": len(ours),
        "unknown_link_entries": unknown,
        "adjacent_equal": adjacent_theirs == adjacent_ours,
        "adjacent_only_theirs": sorted(adjacent_theirs - adjacent_ours),
        "adjacent_only_ours": sorted(adjacent_ours - adjacent_theirs),
        "agree": pairs - len(disagree_theirs) - len(disagree_ours),
        "disabled_only_theirs": [list(p) + [known[p]] for p in disagree_theirs],
        "disabled_only_ours": [list(p) + [ours[p]] for p in disagree_ours],
        "same_reason": same_reason, "both_disabled": sum(1 for p in known if p in ours),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--rmodel", default="rmodel")
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--json", help="write every comparison to this file")
    parser.add_argument("--min-agreement", type=float, default=0.0)
    parser.add_argument("--min-adjacent-equal", type=float, default=0.0)
    args = parser.parse_args()
    configs = []
    for dirpath, dirnames, filenames in os.walk(args.dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if ".setup_assistant" in filenames:
            configs.append(dirpath)
    if not configs:
        print(f"no MoveIt configuration (.setup_assistant) under {args.dir}")
        return 77
    results = [compare(args.rmodel, args.dir, c, args.samples) for c in sorted(configs)]
    total_pairs = total_agree = adjacent_equal = compared = 0
    for r in results:
        if "skipped" in r:
            print(f"{r['config']}: skipped: {r['skipped']}")
            continue
        compared += 1
        total_pairs += r["pairs"]
        total_agree += r["agree"]
        adjacent_equal += r["adjacent_equal"]
        print(f"{r['config']}: {r['links']} links, Adjacent {'equal' if r['adjacent_equal'] else 'differ'}, "
              f"{r['agree']}/{r['pairs']} pairs agree ({100.0 * r['agree'] / max(1, r['pairs']):.1f} %), "
              f"reasons equal in {r['same_reason']}/{r['both_disabled']} disabled by both, "
              f"{r['unknown_link_entries']} entries of links without geometry here")
        for key in ("adjacent_only_theirs", "adjacent_only_ours", "disabled_only_theirs", "disabled_only_ours"):
            if r[key]:
                print(f"  {key}: " + ", ".join(" ".join(p) for p in r[key]))
    agreement = total_agree / total_pairs if total_pairs else 0.0
    adjacent_share = adjacent_equal / compared if compared else 0.0
    print(f"{compared} configurations compared ({len(results) - compared} skipped): Adjacent pairs equal in "
          f"{adjacent_equal}; {total_agree}/{total_pairs} pairs agree ({100.0 * agreement:.2f} %)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)
    if compared == 0:
        return 77
    if agreement < args.min_agreement or adjacent_share < args.min_adjacent_equal:
        print(f"below the bounds: agreement {agreement:.4f} (min {args.min_agreement}), Adjacent equal in "
              f"{adjacent_share:.4f} of the configurations (min {args.min_adjacent_equal})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
