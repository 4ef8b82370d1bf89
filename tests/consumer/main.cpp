// Loads the sample robot installed with rmodel, looks joints up in the full sorted pose,
// and hands one chain to KDL's own forward kinematics solver.
#include <iostream>

#include <kdl/chainfksolverpos_recursive.hpp>
#include <rmodel/base/error.hpp>
#include <rmodel/model/model.hpp>
#include <rmodel/base/version.hpp>

int main(int argc, char** argv) {
  try {
    // A URDF and its semantics (.json or .cpf); by default the sample robot.
    const std::string sample = rmodel::sample_model_dir();
    rmodel::ModelSource source;
    source.urdf_path = argc > 2 ? argv[1] : sample + "/pony.urdf";
    source.semantics_path = argc > 2 ? argv[2] : sample + "/pony.json";
    const rmodel::Model model = rmodel::Model::load(source);

    std::cout << "rmodel " << rmodel::version() << ", sample robot in " << sample << "\n";
    std::cout << model.robot_name() << ": " << model.pose_size() << " joints in the full pose\n";
    std::cout << "neck_pitch is joint " << model.joint_index("neck_pitch") << "\n";

    // The front left leg at the zero pose, through KDL.
    rmodel::JointState pose = model.make_full_state();
    KDL::JntArray q, qdot, effort;
    model.extract_chain("front_left", pose, q, qdot, effort);
    KDL::ChainFkSolverPos_recursive solver(model.kdl_chain("front_left"));
    KDL::Frame hoof;
    if (solver.JntToCart(q, hoof) < 0) return 1;
    std::cout << "front_left hoof at x=" << hoof.p.x() << " y=" << hoof.p.y() << " z=" << hoof.p.z() << "\n";
  } catch (const rmodel::Error& e) {
    std::cerr << "pony_pose: " << e.what() << "\n";
    return 1;
  }
}
