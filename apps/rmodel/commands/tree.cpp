// rmodel tree: the kinematic tree, indented text, a flat table (JSON, CSV) or Graphviz dot.
#include <fmt/format.h>

#include "command.hpp"
#include "options/model_options.hpp"
#include "options/output.hpp"

namespace rmodel::cli {
namespace {

struct TreeLine {
  const LinkInfo* link;
  const JointInfo* joint;  // joint leading to the link, null for the root
  std::size_t depth;
  std::string prefix;      // drawing of the ancestors' branches
  bool last;               // last child of its parent
};

/// Depth-first order without recursion (deep trees must not exhaust the stack).
std::vector<TreeLine> walk(const Model& model) {
  std::vector<TreeLine> lines;
  std::vector<TreeLine> stack{{model.find_link(model.root_link()), nullptr, 0, "", true}};
  while (!stack.empty()) {
    TreeLine line = std::move(stack.back());
    stack.pop_back();
    const auto& children = line.link->child_joints;
    std::string child_prefix =
        line.depth == 0 ? "" : line.prefix + (line.last ? "    " : "│   ");
    for (std::size_t i = children.size(); i-- > 0;) {
      const JointInfo* joint = model.find_urdf_joint(children[i]);
      stack.push_back({model.find_link(joint->child_link), joint, line.depth + 1, child_prefix,
                       i + 1 == children.size()});
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string joint_label(const JointInfo& joint) {
  if (joint.index >= 0) return fmt::format("{}, {}, pose {}", joint.name, to_string(joint.type), joint.index);
  return fmt::format("{}, {}", joint.name, to_string(joint.type));
}

std::string dot_id(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class TreeCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("The kinematic tree: links indented under their parents, with the joints between");
    model_.add_to(app);
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv, OutputFormat::dot}, OutputFormat::text);
  }

  int run() override {
    const Model model = model_.load();
    const auto lines = walk(model);
    std::string out;
    switch (out_.format()) {
      case OutputFormat::json:
      case OutputFormat::csv: {
        // One row per link, depth-first: the tree as a flat table.
        Table table({"link", "depth", "parent", "joint", "type", "index"});
        for (const auto& l : lines)
          table.add_row({l.link->name, l.depth, l.joint ? Json(l.joint->parent_link) : Json(nullptr),
                         l.joint ? Json(l.joint->name) : Json(nullptr),
                         l.joint ? Json(to_string(l.joint->type)) : Json(nullptr),
                         l.joint && l.joint->index >= 0 ? Json(l.joint->index) : Json(nullptr)});
        out = table.render(out_.format(), "rmodel.tree", "links");
        break;
      }
      case OutputFormat::dot: {
        out = fmt::format("digraph {} {{\n  rankdir=TB;\n  node [shape=box];\n", dot_id(model.robot_name()));
        for (const auto& l : lines) {
          out += fmt::format("  {};\n", dot_id(l.link->name));
          if (l.joint)
            out += fmt::format("  {} -> {} [label={}{}];\n", dot_id(l.joint->parent_link), dot_id(l.link->name),
                               dot_id(joint_label(*l.joint)), l.joint->movable() ? "" : ", style=dashed");
        }
        out += "}\n";
        break;
      }
      default:
        for (const auto& l : lines) {
          if (!l.joint) {
            out += l.link->name + "\n";
            continue;
          }
          out += fmt::format("{}{}{}  ({})\n", l.prefix, l.last ? "└── " : "├── ", l.link->name, joint_label(*l.joint));
        }
    }
    out_.write(out);
    out_.close();
    return kOk;
  }

private:
  ModelOptions model_;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_tree_command() { return std::make_unique<TreeCommand>(); }

}  // namespace rmodel::cli
