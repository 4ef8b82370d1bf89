// rmodel contacts: contacts and their points (link frame, metres).
#include <fmt/format.h>

#include "command.hpp"
#include "commands/entities.hpp"
#include "model_options.hpp"
#include "output.hpp"

namespace rmodel::cli {
namespace {

class ContactsCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description("Contacts: index, points in the frame of a chain's last link (m), chains using it by default");
    model_.add_to(app);
    add_format_option(app, format_, {OutputFormat::text, OutputFormat::json, OutputFormat::csv});
    app.add_option("names", names_, "Contacts to show (default: all)");
  }

  int run() override {
    const Model model = model_.load();
    Table table({"index", "name", "points", "default_for"});
    for (const Contact* c : select_entities(model.contacts(), names_, "contact")) {
      Json points = Json::array();
      for (const auto& p : c->points) {
        if (format_ == OutputFormat::json)
          points.push_back({p.x(), p.y(), p.z()});
        else
          points.push_back(fmt::format("({} {} {})", number_text(p.x()), number_text(p.y()), number_text(p.z())));
      }
      Json users = Json::array();
      for (const auto& chain : model.chains())
        if (chain.default_contact == c->name) users.push_back(chain.name);
      table.add_row({c->index, c->name, points, users});
    }
    write_out(table.render(format_));
    return kOk;
  }

private:
  ModelOptions model_;
  OutputFormat format_ = OutputFormat::text;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Command> make_contacts_command() { return std::make_unique<ContactsCommand>(); }

}  // namespace rmodel::cli
