// Reading and writing the OROCOS .cpf PropertyBag form of the semantic description, as the
// Sweetie Bot robot writes it: <properties> holding structs "chains", "groups", "contacts".
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "rmodel/base/error.hpp"
#include "rmodel/base/xml_text.hpp"
#include "rmodel/model/semantics.hpp"
#include "base/xml_error.hpp"

namespace rmodel {
namespace {

using tinyxml2::XMLElement;

class CpfReader {
public:
  explicit CpfReader(const std::string& source) : source_(source) {}

  Semantics read(std::string_view text) {
    tinyxml2::XMLDocument doc;
    if (const auto problem = detail::parse_xml(doc, text)) fail(problem->line, problem->message);
    const XMLElement* root = doc.RootElement();
    if (!root || std::string_view(root->Name()) != "properties")
      fail(root ? root->GetLineNum() : 1,
           fmt::format("root element is <{}>, expected <properties> (OROCOS .cpf)",
                       root ? root->Name() : ""));
    Semantics out;
    out.source = source_;
    for (const XMLElement* bag = root->FirstChildElement(); bag; bag = bag->NextSiblingElement()) {
      const std::string name = name_of(bag);
      if (std::string_view(bag->Name()) != "struct") {
        warn(out, bag, fmt::format("ignored top-level <{}> '{}'", bag->Name(), name));
        continue;
      }
      if (name == "chains")
        for_each_struct(bag, [&](const XMLElement* e) { out.chains.push_back(read_chain(e, out)); });
      else if (name == "groups")
        for_each_struct(bag, [&](const XMLElement* e) { out.groups.push_back(read_group(e, out)); });
      else if (name == "contacts")
        for_each_struct(bag, [&](const XMLElement* e) { out.contacts.push_back(read_contact(e, out)); });
      else
        warn(out, bag, fmt::format("ignored top-level struct '{}' (expected chains, groups or contacts)", name));
    }
    return out;
  }

private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw ParseError({source_, line}, message);
  }

  void warn(Semantics& out, const XMLElement* e, std::string message) const {
    out.warnings.push_back({Severity::warning, {source_, e->GetLineNum()}, "ignored", std::move(message)});
  }

  std::string name_of(const XMLElement* e) const {
    const char* name = e->Attribute("name");
    if (!name || !*name) fail(e->GetLineNum(), fmt::format("<{}> without a name attribute", e->Name()));
    return name;
  }

  static std::string type_of(const XMLElement* e) {
    const char* type = e->Attribute("type");
    return type ? type : "";
  }

  static std::string description_of(const XMLElement* e) {
    const XMLElement* d = e->FirstChildElement("description");
    return d && d->GetText() ? d->GetText() : "";
  }

  template <class F>
  void for_each_struct(const XMLElement* bag, F&& f) const {
    for (const XMLElement* e = bag->FirstChildElement(); e; e = e->NextSiblingElement()) {
      std::string_view tag = e->Name();
      if (tag == "description") continue;
      if (tag != "struct")
        fail(e->GetLineNum(), fmt::format("expected <struct> inside '{}', found <{}>", name_of(bag), tag));
      f(e);
    }
  }

  std::string simple_value(const XMLElement* simple) const {
    const XMLElement* value = simple->FirstChildElement("value");
    if (!value)
      fail(simple->GetLineNum(), fmt::format("property '{}' has no <value>", name_of(simple)));
    return value->GetText() ? value->GetText() : "";
  }

  std::string string_property(const XMLElement* simple) const {
    if (std::string_view(simple->Name()) != "simple" || type_of(simple) != "string")
      fail(simple->GetLineNum(),
           fmt::format("property '{}' must be <simple type=\"string\">", name_of(simple)));
    return simple_value(simple);
  }

  double double_property(const XMLElement* simple) const {
    if (std::string_view(simple->Name()) != "simple")
      fail(simple->GetLineNum(), fmt::format("coordinate '{}' must be a <simple>", name_of(simple)));
    const std::string text = simple_value(simple);
    double value = 0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(*begin))) ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(end[-1]))) --end;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (begin == end || ec != std::errc() || ptr != end || !std::isfinite(value))
      fail(simple->GetLineNum(),
           fmt::format("coordinate '{}' is not a finite number: '{}'", name_of(simple), text));
    return value;
  }

  std::vector<std::string> string_array(const XMLElement* array) const {
    if (std::string_view(array->Name()) != "struct" || type_of(array) != "string[]")
      fail(array->GetLineNum(),
           fmt::format("'{}' must be <struct type=\"string[]\">", name_of(array)));
    std::vector<std::string> items;
    for (const XMLElement* e = array->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string_view(e->Name()) == "description") continue;
      items.push_back(string_property(e));
    }
    return items;
  }

  ChainSpec read_chain(const XMLElement* e, Semantics& out) const {
    ChainSpec chain;
    chain.name = name_of(e);
    chain.line = e->GetLineNum();
    chain.description = description_of(e);
    for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
      std::string_view tag = p->Name();
      if (tag == "description") continue;
      const std::string key = name_of(p);
      if (key == "first_link") chain.first_link = string_property(p);
      else if (key == "last_link") chain.last_link = string_property(p);
      else if (key == "last_link_virtual") chain.last_link_virtual = string_property(p);
      else if (key == "default_contact") chain.default_contact = string_property(p);
      else if (std::string_view(p->Name()) == "simple") {
        // Any other simple property is a parameter of the chain: kept as written.
        for (const auto& x : chain.extra)
          if (x.name == key) fail(p->GetLineNum(), fmt::format("chain '{}': property '{}' is given twice", chain.name, key));
        chain.extra.push_back({key, type_of(p), simple_value(p)});
      } else {
        warn(out, p, fmt::format("chain '{}': ignored property '{}' (only <simple> parameters are kept)", chain.name, key));
      }
    }
    if (chain.first_link.empty())
      fail(chain.line, fmt::format("chain '{}' has no first_link", chain.name));
    if (chain.last_link.empty())
      fail(chain.line, fmt::format("chain '{}' has no last_link", chain.name));
    return chain;
  }

  GroupSpec read_group(const XMLElement* e, Semantics& out) const {
    GroupSpec group;
    group.name = name_of(e);
    group.line = e->GetLineNum();
    group.description = description_of(e);
    for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
      if (std::string_view(p->Name()) == "description") continue;
      const std::string key = name_of(p);
      if (key == "chains") group.chains = string_array(p);
      else if (key == "joints") group.joints = string_array(p);
      else warn(out, p, fmt::format("group '{}': ignored property '{}'", group.name, key));
    }
    return group;
  }

  ContactSpec read_contact(const XMLElement* e, Semantics& out) const {
    ContactSpec contact;
    contact.name = name_of(e);
    contact.line = e->GetLineNum();
    contact.description = description_of(e);
    for (const XMLElement* p = e->FirstChildElement(); p; p = p->NextSiblingElement()) {
      if (std::string_view(p->Name()) == "description") continue;
      const std::string key = name_of(p);
      if (key != "points") {
        warn(out, p, fmt::format("contact '{}': ignored property '{}'", contact.name, key));
        continue;
      }
      if (type_of(p) != "KDL.Vector[]")
        fail(p->GetLineNum(), fmt::format("contact '{}': points must be of type KDL.Vector[]", contact.name));
      for (const XMLElement* v = p->FirstChildElement(); v; v = v->NextSiblingElement()) {
        if (std::string_view(v->Name()) == "description") continue;
        if (type_of(v) != "KDL.Vector")
          fail(v->GetLineNum(), fmt::format("contact '{}': point '{}' must be of type KDL.Vector",
                                            contact.name, name_of(v)));
        contact.points.push_back(read_vector(v, contact.name));
      }
    }
    return contact;
  }

  KDL::Vector read_vector(const XMLElement* v, const std::string& contact) const {
    double xyz[3] = {0, 0, 0};
    bool seen[3] = {false, false, false};
    for (const XMLElement* c = v->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) == "description") continue;
      const std::string key = name_of(c);
      int axis = key == "X" ? 0 : key == "Y" ? 1 : key == "Z" ? 2 : -1;
      if (axis < 0)
        fail(c->GetLineNum(), fmt::format("contact '{}': unexpected coordinate '{}' (expected X, Y, Z)",
                                          contact, key));
      xyz[axis] = double_property(c);
      seen[axis] = true;
    }
    if (!seen[0] || !seen[1] || !seen[2])
      fail(v->GetLineNum(), fmt::format("contact '{}': point '{}' needs X, Y and Z", contact, name_of(v)));
    return {xyz[0], xyz[1], xyz[2]};
  }

  const std::string& source_;
};

/// A text for the .cpf's XML (rmodel/base/xml_text.hpp): element text, or an attribute value.
std::string xml_text(std::string_view text) { return xml_escaped(text, XmlPlace::text); }
std::string xml_attribute(std::string_view text) { return xml_escaped(text, XmlPlace::attribute); }

void write_description(std::string& out, const std::string& indent, const std::string& text) {
  if (!text.empty()) out += fmt::format("{}<description>{}</description>\n", indent, xml_text(text));
}

void write_string(std::string& out, const std::string& indent, std::string_view name,
                  std::string_view value) {
  out += fmt::format("{}<simple name=\"{}\" type=\"string\"><value>{}</value></simple>\n", indent,
                     xml_attribute(name), xml_text(value));
}

void write_string_array(std::string& out, const std::string& indent, std::string_view name,
                        const std::vector<std::string>& items) {
  out += fmt::format("{}<struct name=\"{}\" type=\"string[]\">\n", indent, xml_attribute(name));
  for (std::size_t i = 0; i < items.size(); ++i)
    write_string(out, indent + "  ", fmt::format("Element{}", i), items[i]);
  out += fmt::format("{}</struct>\n", indent);
}

}  // namespace

Semantics parse_cpf(std::string_view text, const std::string& source_name) {
  return CpfReader(source_name).read(text);
}

std::string to_cpf(const Semantics& semantics) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!DOCTYPE properties SYSTEM \"cpf.dtd\">\n<properties>\n";
  out += "  <struct name=\"chains\" type=\"PropertyBag\">\n";
  for (const auto& c : semantics.chains) {
    out += fmt::format("    <struct name=\"{}\" type=\"PropertyBag\">\n", xml_attribute(c.name));
    write_description(out, "      ", c.description);
    write_string(out, "      ", "first_link", c.first_link);
    write_string(out, "      ", "last_link", c.last_link);
    if (!c.last_link_virtual.empty()) write_string(out, "      ", "last_link_virtual", c.last_link_virtual);
    if (!c.default_contact.empty()) write_string(out, "      ", "default_contact", c.default_contact);
    for (const auto& x : c.extra)
      out += fmt::format("      <simple name=\"{}\" type=\"{}\"><value>{}</value></simple>\n", xml_attribute(x.name),
                         xml_attribute(x.type), xml_text(x.value));
    out += "    </struct>\n";
  }
  out += "  </struct>\n  <struct name=\"groups\" type=\"PropertyBag\">\n";
  for (const auto& g : semantics.groups) {
    out += fmt::format("    <struct name=\"{}\" type=\"PropertyBag\">\n", xml_attribute(g.name));
    write_description(out, "      ", g.description);
    if (!g.chains.empty()) write_string_array(out, "      ", "chains", g.chains);
    if (!g.joints.empty()) write_string_array(out, "      ", "joints", g.joints);
    out += "    </struct>\n";
  }
  out += "  </struct>\n  <struct name=\"contacts\" type=\"PropertyBag\">\n";
  for (const auto& c : semantics.contacts) {
    out += fmt::format("    <struct name=\"{}\" type=\"PropertyBag\">\n", xml_attribute(c.name));
    write_description(out, "      ", c.description);
    out += "      <struct name=\"points\" type=\"KDL.Vector[]\">\n";
    for (std::size_t i = 0; i < c.points.size(); ++i) {
      out += fmt::format("        <struct name=\"Element{}\" type=\"KDL.Vector\">\n", i);
      const char* axes[] = {"X", "Y", "Z"};
      for (int a = 0; a < 3; ++a)
        out += fmt::format("          <simple name=\"{}\" type=\"double\"><value>{}</value></simple>\n",
                           axes[a], c.points[i][a]);
      out += "        </struct>\n";
    }
    out += "      </struct>\n    </struct>\n";
  }
  out += "  </struct>\n</properties>\n";
  return out;
}

}  // namespace rmodel
