#!/usr/bin/env python3
"""Reads an XML file with expat (Python's xml.parsers.expat), the strict XML 1.0 parser that
ROS's xacro and MoveIt's Python tools read with, and writes what it read as JSON:

    expat_read.py IN.xml OUT.json

{"elements": [{"name", "attributes": {name: value}, "text"}...]} in document order (`text`:
the element's own character data, joined), or {"error": "..."} when expat refuses the file.
The oracle of the XML rmodel writes (tests/support/xml_oracle.hpp).
"""

import json
import sys
import xml.parsers.expat


def main(source, target):
    with open(source, 'rb') as f:
        data = f.read()
    elements, open_elements = [], []
    parser = xml.parsers.expat.ParserCreate()

    def start(name, attributes):
        element = {'name': name, 'attributes': attributes, 'text': ''}
        elements.append(element)
        open_elements.append(element)

    def end(_name):
        open_elements.pop()

    def characters(data):
        if open_elements:
            open_elements[-1]['text'] += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(data, True)
        result = {'elements': elements}
    except xml.parsers.expat.ExpatError as e:
        result = {'error': str(e)}
    with open(target, 'w', encoding='ascii') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
